import type { DeviceRegistration } from '@gatehouse/contract/client';

/**
 * The accounts this device last read as its own (issue 26): a registration removed elsewhere (the
 * account's security page, support) is then told on this device instead of vanishing silently.
 * Only names and ids, never a key; in this browser's storage, as the device key is.
 */
const storageKey = 'gatehouse.device.accounts';
type Remembered = Pick<DeviceRegistration, 'id' | 'username'>;

export function rememberedAccounts(): Remembered[] {
  try {
    const value = JSON.parse(localStorage.getItem(storageKey) ?? '[]') as unknown;
    return Array.isArray(value)
      ? value.filter(
          (r): r is Remembered =>
            typeof r === 'object' && r !== null && typeof r.id === 'string' && typeof r.username === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

export function rememberAccounts(list: readonly DeviceRegistration[]): void {
  try {
    localStorage.setItem(storageKey, JSON.stringify(list.map(({ id, username }) => ({ id, username }))));
  } catch {
    // Storage refused (a private window): the device works on, it only cannot tell a removal.
  }
}

/** A removal made on this device: told here already, so not again as one made elsewhere. */
export function forgetAccount(id: string): void {
  rememberAccounts(
    rememberedAccounts()
      .filter((r) => r.id !== id)
      .map((r) => ({ ...r, name: '', createdAt: '', lastUsedAt: null })),
  );
}
