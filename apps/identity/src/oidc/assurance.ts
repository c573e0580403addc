import { type SessionFactor, TRUSTED_DEVICE } from '../services/sessions.ts';

/**
 * Step-up levels by standard parameters (docs/oidc.md "Step-up levels"; decision 048): the `acr`
 * values this provider answers and asks for, weakest first, and how a session's factors
 * (`session_factors`) reach them.
 */
export const acrLevels = {
  /** The password alone. */
  password: 'urn:gatehouse:acr:password',
  /** The password and any second factor (a trusted device standing in for one counts). */
  mfa: 'urn:gatehouse:acr:mfa',
  /** A phishing-resistant factor (a passkey). */
  phishingResistant: 'urn:gatehouse:acr:phishing-resistant',
} as const;

export const acrValues: string[] = Object.values(acrLevels);

/** The rank of an acr value (unknown values rank above every level: never met). */
export const acrRank = (value: string): number => {
  const rank = acrValues.indexOf(value);
  return rank === -1 ? Number.POSITIVE_INFINITY : rank;
};

/**
 * RFC 8176 method references by factor kind: a code sent by text is `sms` (and `otp`), by voice
 * `tel`, by e-mail or from a representative or an app `otp`; a push answered with the device's own
 * key `swk`; a passkey `hwk`; the password `pwd`. A trusted device is not a method (nothing was
 * proved in this sign-in): it adds none.
 */
const methodsByKind: Record<string, string[]> = {
  password: ['pwd'],
  'OTP-SMS': ['sms', 'otp'],
  'OTP-VOICE': ['tel', 'otp'],
  'OTP-EMAIL': ['otp'],
  'OTP-REP': ['otp'],
  TOTPSVIP: ['otp'],
  TOTPAUTHN: ['otp'],
  PUSH: ['swk'],
  PASSKEY: ['hwk'],
  [TRUSTED_DEVICE]: [],
};

/** What a signed-in session proved, as the ID token says it: acr, amr and auth_time. */
export type Assurance = { acr: string; amr: string[]; authTime: number };

export function assuranceOf(factors: readonly SessionFactor[]): Assurance {
  const amr = new Set<string>();
  for (const f of factors) for (const m of methodsByKind[f.kind] ?? (f.level >= 2 ? ['otp'] : [])) amr.add(m);
  const second = factors.some((f) => f.level >= 2);
  // More than one method, of which one is beyond the password: RFC 8176 `mfa`.
  if (second && amr.has('pwd') && amr.size > 1) amr.add('mfa');
  const acr = factors.some((f) => f.phishingResistant)
    ? acrLevels.phishingResistant
    : second
      ? acrLevels.mfa
      : acrLevels.password;
  const last = factors.reduce((at, f) => Math.max(at, f.verifiedAt.getTime()), 0);
  return { acr, amr: [...amr], authTime: Math.floor(last / 1000) };
}

/**
 * The lowest level of the requested `acr_values` (a list the client would accept, any one will
 * do); null when none was asked. Unknown values are ignored unless nothing else was asked.
 */
export function requestedAcr(acrValuesParam: string | undefined): string | null {
  if (!acrValuesParam) return null;
  const asked = acrValuesParam.split(' ').filter(Boolean);
  const known = asked.filter((v) => acrValues.includes(v)).sort((a, b) => acrRank(a) - acrRank(b));
  return known[0] ?? asked[0] ?? null;
}

export const meets = (have: string, wanted: string | null): boolean =>
  wanted === null || acrRank(have) >= acrRank(wanted);
