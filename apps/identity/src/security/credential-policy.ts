import type { ServerMessageKey } from '@gatehouse/contract';
import type { Context } from '../context.ts';
import type { Credential } from '../credentials/store.ts';
import type { Contact } from '../db/schema.ts';
import { declared, factorOfKind, factorSecurities } from './factor-lookup.ts';

/**
 * The credential lifecycle (issue 22 "What to build" 1; docs/decisions/030-credential-lifecycle.md):
 * ONE place decides, for every kind of credential, what it may do while it is *recent* (added less
 * than its factor's established period ago, default CONTACT_WAIT_DAYS) and once it is
 * *established*. The factor modules, the security page, device registration and recovery ask
 * here; none of them compares a credential's age itself. What differs between factors is what each
 * declares in its security part (factor-security.ts `policy`), found by the credential's kind
 * (issue 24): no list per kind here.
 *
 * | use                                  | recent                                   | established |
 * | ------------------------------------ | ---------------------------------------- | ----------- |
 * | sign in (LOGIN's second factor)      | when its factor says `recentSignsIn`     | yes         |
 * |                                      | (apps, tokens, devices: yes; contacts: no) |           |
 * | the security page's step-up (STEPUP) | no                                       | yes         |
 * | receive recovery codes               | no                                       | when its factor says `recovery` |
 * | be the device pushes go to           | only while no established device exists  | yes         |
 * | stand behind an addition or removal  | no (the step-up above is the proof)      | yes         |
 *
 * The account row's own e-mail address predates the lifecycle and is established. A phone or e-mail
 * waited before it could sign in already (widget spec §5); that wait is this one.
 */

/** What a credential is asked to do. */
export type CredentialUse = 'signIn' | 'stepUp' | 'recovery';
export type Standing = 'recent' | 'established';

/** Anything of a kind with the time it was added: a credential, or a contact row. */
type Dated = ({ createdAt: Date } | { added_at: Date | string }) & { kind: string };

const addedAt = (c: Dated): Date => ('createdAt' in c ? c.createdAt : new Date(c.added_at));

/** When a credential becomes established: its factor's period after it was added. */
export function establishedFrom(ctx: Context, c: Dated): Date {
  const period = factorOfKind(c.kind)?.security.policy.establishedAfterMs?.(ctx.config);
  return new Date(addedAt(c).getTime() + (period ?? ctx.config.factor.contactWaitMs));
}

export function standing(ctx: Context, c: Dated): Standing {
  return ctx.clock.now().getTime() >= establishedFrom(ctx, c).getTime() ? 'established' : 'recent';
}

export const isEstablished = (ctx: Context, c: Dated): boolean => standing(ctx, c) === 'established';

/** May this credential (of any kind) serve this use now? Never one of a kind no factor declares. */
export function mayUse(ctx: Context, c: Dated, use: CredentialUse): boolean {
  const policy = factorOfKind(c.kind)?.security.policy;
  if (!policy) return false;
  if (isEstablished(ctx, c)) return use !== 'recovery' || policy.recovery;
  // Recent: an app, a token or a device still signs in (the customer's own new phone works at
  // once); a recent contact waits for everything (widget spec §5).
  return use === 'signIn' && policy.recentSignsIn;
}

/** The credentials of a list that may serve a use now (order kept). */
export function usableFor<T extends Dated>(ctx: Context, list: T[], use: CredentialUse): T[] {
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

/** The cap a kind counts towards: its factor's group (factors of one group count together). */
export const capGroupOf = (kind: string): string => declared(kind).security.policy.cap.group;

/** The credential kinds that count towards a cap group. */
export const kindsOf = (group: string): readonly string[] =>
  factorSecurities()
    .filter((f) => f.security.policy.cap.group === group)
    .flatMap((f) => f.credentialKinds);

/** The most credentials of a group an account may hold (CREDENTIAL_MAX_*). */
export function capOf(ctx: Context, group: string): number {
  const factor = factorSecurities().find((f) => f.security.policy.cap.group === group);
  if (!factor) throw new Error(`No factor counts towards the cap group ${group}`);
  return factor.security.policy.cap.max(ctx.config);
}

/** Would one more credential of this kind pass the account's cap, given what it holds? */
export function capReached(ctx: Context, held: ReadonlyArray<{ kind: string }>, kind: string): boolean {
  const group = capGroupOf(kind);
  const kinds = new Set<string>(kindsOf(group));
  return held.filter((c) => kinds.has(c.kind)).length >= capOf(ctx, group);
}

/**
 * May `target` be removed, given every credential of the account (target included) and the
 * account row's e-mail? Never the last usable second factor, never the last established one while
 * a recent one would be left in charge (every factor); then its factor's own rule, if it has one
 * (the contacts': never the last established e-mail address on file). 'ok' or the refusal's text.
 */
export function removal(
  ctx: Context,
  all: ReadonlyArray<Credential>,
  target: Credential,
  accountEmail: string | null,
): 'ok' | ServerMessageKey {
  const others = all.filter((c) => c.id !== target.id);
  const own = factorOfKind(target.kind)?.security.remove?.rule?.(ctx, others, target, accountEmail) ?? 'ok';
  // The contacts' rule speaks first (it names the address), as it always has.
  if (own !== 'ok') return own;
  const signsIn = (c: Credential) => mayUse(ctx, c, 'signIn');
  if (signsIn(target) && !others.some(signsIn)) return 'lastFactor';
  const proves = (c: Credential) => mayUse(ctx, c, 'stepUp');
  if (proves(target) && !others.some(proves)) return 'lastFactor';
  return 'ok';
}

/** A contact row's credential-like shape (for the helpers above). */
export const contactDated = (c: Contact) => ({ kind: c.kind, added_at: c.added_at });
