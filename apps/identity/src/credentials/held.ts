import type { Context } from '../context.ts';
import type { Contact as ContactRow } from '../db/schema.ts';
import { contactOf } from './contacts.ts';
import type { Credential, CredentialKind } from './store.ts';

/**
 * An account's credentials of every kind, read in one statement for the offers of every factor
 * module (issue 25: an authenticator list read the credentials table once per module, five times in
 * a sign-in). Each module picks its kinds here and applies its own policy, as it did on its own read.
 */
export class HeldCredentials {
  private constructor(readonly all: readonly Credential[]) {}

  /** Reads the account's credentials, oldest first (one statement). */
  static async read(ctx: Context, accountId: string): Promise<HeldCredentials> {
    return new HeldCredentials(await ctx.credentials.list(accountId));
  }

  /** Credentials already read (a test, or a caller holding them). */
  static of(all: readonly Credential[]): HeldCredentials {
    return new HeldCredentials(all);
  }

  /** Those of one kind, oldest first. */
  ofKind(kind: CredentialKind): Credential[] {
    return this.all.filter((c) => c.kind === kind);
  }

  /** The phone and e-mail credentials in the contact shape, oldest first (as accountContacts). */
  get contacts(): ContactRow[] {
    return this.all.filter((c) => c.kind === 'phone' || c.kind === 'email').map(contactOf);
  }
}
