import type { Context } from '../context.ts';
import type { Credential, CredentialKind } from '../credentials/store.ts';
import type { Contact } from '../db/schema.ts';

/**
 * The credential lifecycle (issue 22 "What to build" 1; docs/decisions/030-credential-lifecycle.md):
 * ONE place decides, for every kind of credential (phone, e-mail, authenticator app, token, push
 * device), what it may do while it is *recent* (added less than CONTACT_WAIT_DAYS ago) and once it
 * is *established*. The factor modules, the security page, device registration and recovery ask
 * here; none of them compares a credential's age itself.
 *
 * | use                                  | recent                                   | established |
 * | ------------------------------------ | ---------------------------------------- | ----------- |
 * | sign in (LOGIN's second factor)      | apps, tokens, devices: yes; contacts: no | yes         |
 * | the security page's step-up (STEPUP) | no                                       | yes         |
 * | receive recovery codes               | no                                       | yes         |
 * | be the device pushes go to           | only while no established device exists  | yes         |
 * | stand behind an addition or removal  | no (the step-up above is the proof)      | yes         |
 *
 * The account row's own e-mail address predates the lifecycle and is established. A phone or e-mail
 * waited before it could sign in already (widget spec §5); that wait is this one.
 */

/** What a credential is asked to do. */
export type CredentialUse = 'signIn' | 'stepUp' | 'recovery';
export type Standing = 'recent' | 'established';

/** Anything with the time it was added: a credential, or a contact row. */
type Dated = { createdAt: Date } | { added_at: Date | string };

const addedAt = (c: Dated): Date => ('createdAt' in c ? c.createdAt : new Date(c.added_at));

/** When a credential becomes established. */
export function establishedFrom(ctx: Context, c: Dated): Date {
  return new Date(addedAt(c).getTime() + ctx.config.factor.contactWaitMs);
}

export function standing(ctx: Context, c: Dated): Standing {
  return ctx.clock.now().getTime() >= establishedFrom(ctx, c).getTime() ? 'established' : 'recent';
}

export const isEstablished = (ctx: Context, c: Dated): boolean => standing(ctx, c) === 'established';

const contactKinds: ReadonlySet<string> = new Set(['phone', 'email']);

/** May this credential (of any kind) serve this use now? */
export function mayUse(ctx: Context, c: Dated & { kind: string }, use: CredentialUse): boolean {
  if (isEstablished(ctx, c)) return use !== 'recovery' || contactKinds.has(c.kind);
  // Recent: an app, a token or a device still signs in (the customer's own new phone works at
  // once); a recent contact waits for everything (widget spec §5).
  return use === 'signIn' && !contactKinds.has(c.kind);
}

/** The credentials of a list that may serve a use now (order kept). */
export function usableFor<T extends Dated & { kind: string }>(
  ctx: Context,
  list: T[],
  use: CredentialUse,
): T[] {
  return list.filter((c) => mayUse(ctx, c, use));
}

/** The use a factor journey asks of a credential. */
export const useOfJourney = (journey: 'login' | 'stepup' | undefined): CredentialUse =>
  journey === 'stepup' ? 'stepUp' : 'signIn';

/**
 * The device pushes go to, of an account's push devices (oldest first): the newest established
 * one; a recent one only while none is established, and never for a step-up.
 */
export function pushTarget<T extends Credential>(ctx: Context, devices: T[], use: CredentialUse): T[] {
  const newestFirst = [...devices].reverse();
  const established = newestFirst.filter((d) => isEstablished(ctx, d));
  if (established.length || use !== 'signIn') return established;
  return newestFirst;
}

/** The kinds an account may hold at most a number of, and the group each kind counts in. */
export type CapGroup = 'pushDevices' | 'contacts' | 'apps';
export const capGroupOf = (kind: CredentialKind): CapGroup =>
  kind === 'push' ? 'pushDevices' : kind === 'phone' || kind === 'email' ? 'contacts' : 'apps';
export const kindsOf = (group: CapGroup): readonly CredentialKind[] =>
  group === 'pushDevices' ? ['push'] : group === 'contacts' ? ['phone', 'email'] : ['totp', 'token'];

/** The most credentials of a group an account may hold (CREDENTIAL_MAX_*). */
export const capOf = (ctx: Context, group: CapGroup): number => ctx.config.security.caps[group];

/** Would one more credential of this kind pass the account's cap, given what it holds? */
export function capReached(
  ctx: Context,
  held: ReadonlyArray<{ kind: string }>,
  kind: CredentialKind,
): boolean {
  const group = capGroupOf(kind);
  const kinds = new Set<string>(kindsOf(group));
  return held.filter((c) => kinds.has(c.kind)).length >= capOf(ctx, group);
}

/**
 * May `target` be removed, given every credential of the account (target included) and the
 * account row's e-mail? Never the last established e-mail address on file (notices and recovery
 * go there: a recent one waiting does not count), never the last usable second factor, and never
 * the last established one while a recent one would be left in charge.
 */
export function removal(
  ctx: Context,
  all: ReadonlyArray<Credential>,
  target: Credential,
  accountEmail: string | null,
): 'ok' | 'lastEmail' | 'lastFactor' {
  const others = all.filter((c) => c.id !== target.id);
  if (target.kind === 'email') {
    const address = (target.publicPart ?? '').toLowerCase();
    const primary = accountEmail && accountEmail.toLowerCase() !== address ? 1 : 0;
    const established = others.filter((c) => c.kind === 'email' && isEstablished(ctx, c)).length;
    if (!primary && !established) return 'lastEmail';
  }
  const signsIn = (c: Credential) => mayUse(ctx, c, 'signIn');
  if (signsIn(target) && !others.some(signsIn)) return 'lastFactor';
  const proves = (c: Credential) => mayUse(ctx, c, 'stepUp');
  if (proves(target) && !others.some(proves)) return 'lastFactor';
  return 'ok';
}

/** A contact row's credential-like shape (for the helpers above). */
export const contactDated = (c: Contact) => ({ kind: c.kind, added_at: c.added_at });
