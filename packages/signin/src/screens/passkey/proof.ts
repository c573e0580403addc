/**
 * The conditional-mediation proof of a login (passkey API, decision 041b): an opaque single-use id
 * the login screen's passkey autofill received, held in this module's memory only (never web
 * storage) per widget instance, until the passkey screen of that login takes it, once.
 */
const held = new Map<string, string>();

export function holdProof(idPrefix: string, proof: string): void {
  held.set(idPrefix, proof);
}

/** The proof held for this widget, removed as it is taken (single use). */
export function takeProof(idPrefix: string): string | undefined {
  const proof = held.get(idPrefix);
  held.delete(idPrefix);
  return proof;
}
