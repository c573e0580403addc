import type { FactorSecurityEntry } from './factor-security.ts';

/**
 * The factors' security parts as the credential policy, the overview and the removal find them
 * (by credential kind), provided once when the factors are loaded (factors/registry.ts
 * `loadFactors`: every module that declares `security`, with the key and credential kinds of its
 * name table): this module imports no factor, so the policy the factors use never imports them
 * back (biome noImportCycles).
 */
let entries: readonly FactorSecurityEntry[] = [];

/** Every factor's security part, in the overview's order. Throws before they are provided. */
export function factorSecurities(): readonly FactorSecurityEntry[] {
  if (!entries.length) throw new Error('No factor security part is loaded (await loadFactors() at start)');
  return entries;
}

/** Provides the factors' security parts (the factors' loading does; a test may add a factor of its own). */
export function provideFactorSecurities(list: readonly FactorSecurityEntry[]): void {
  entries = list;
}

/** The factor whose credentials are stored under this kind (undefined: no factor declares it). */
export function factorOfKind(kind: string): FactorSecurityEntry | undefined {
  return factorSecurities().find((f) => f.credentialKinds.includes(kind));
}

/** The factor of a kind some factor must declare (a credential about to be added): else a programming error. */
export function declared(kind: string): FactorSecurityEntry {
  const factor = factorOfKind(kind);
  if (!factor) throw new Error(`No factor declares the credential kind ${kind}`);
  return factor;
}
