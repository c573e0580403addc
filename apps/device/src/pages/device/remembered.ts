import type { DeviceRegistration } from '@gatehouse/contract/client';
import type { DeviceKey } from '../../device/deviceKey.ts';
import type { RememberedAccount } from '../../device/keyStore.ts';

/**
 * The accounts this device last read as its own (issue 26), kept beside the device key (IndexedDB,
 * never web storage): a registration removed elsewhere (the account's security page, support) is
 * then told on this device instead of vanishing silently. Only ids and usernames, never a secret.
 */
export async function rememberedAccounts(key: DeviceKey): Promise<RememberedAccount[]> {
  try {
    return (await key.accounts?.get()) ?? [];
  } catch {
    return [];
  }
}

export async function rememberAccounts(
  key: DeviceKey,
  list: readonly Pick<DeviceRegistration, 'id' | 'username'>[],
): Promise<void> {
  try {
    await key.accounts?.set(list.map(({ id, username }) => ({ id, username })));
  } catch {
    // Storage refused: the device works on; it only cannot tell a removal made elsewhere.
  }
}

/** A removal made on this device: told here already, so not again as one made elsewhere. */
export async function forgetAccount(key: DeviceKey, id: string): Promise<void> {
  await rememberAccounts(
    key,
    (await rememberedAccounts(key)).filter((r) => r.id !== id),
  );
}
