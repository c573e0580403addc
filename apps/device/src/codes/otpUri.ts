import { TOTP, URI } from 'otpauth';

/** What the app keeps of an authenticator (RFC 6238 parameters and a name), the secret in base32. */
export type CodeParameters = {
  issuer: string;
  label: string;
  secret: string;
  algorithm: 'SHA1' | 'SHA256' | 'SHA512';
  digits: number;
  period: number;
};

/** Why an address was refused: a key of the codes page's messages. */
export type UriProblem =
  | 'uriRequired'
  | 'uriNotOtpauth'
  | 'uriNotTotp'
  | 'uriNoLabel'
  | 'uriSecret'
  | 'uriSecretShort'
  | 'uriAlgorithm'
  | 'uriDigits'
  | 'uriPeriod'
  | 'uriInvalid';

const ALGORITHMS = ['SHA1', 'SHA256', 'SHA512'] as const;
/** At least 80 bits (16 base32 characters), as the server's demo secrets rule. */
const MIN_SECRET_CHARS = 16;
export const PERIOD_RANGE = [10, 120] as const;

/**
 * Reads an `otpauth://totp/...` key URI (the Google Authenticator format) with the `otpauth`
 * library, after our own checks, which say what is wrong: only TOTP, SHA1/SHA256/SHA512, 6 to 8
 * digits, a period of 10 to 120 seconds, a base32 secret of at least 80 bits, a label.
 */
export function parseOtpUri(
  text: string,
): { ok: true; value: CodeParameters } | { ok: false; problem: UriProblem } {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, problem: 'uriRequired' };
  const parts = /^otpauth:\/\/([^/?#]*)\/([^?#]*)(?:\?([^#]*))?$/i.exec(trimmed);
  if (!parts) return { ok: false, problem: 'uriNotOtpauth' };
  if (parts[1]!.toLowerCase() !== 'totp') return { ok: false, problem: 'uriNotTotp' };
  if (!parts[2]) return { ok: false, problem: 'uriNoLabel' };
  const params = new Map<string, string>();
  for (const pair of (parts[3] ?? '').split('&')) {
    const at = pair.indexOf('=');
    if (at > 0) params.set(pair.slice(0, at).toLowerCase(), safeDecode(pair.slice(at + 1)));
  }
  const secret = params.get('secret') ?? '';
  if (!/^[A-Z2-7]+=*$/i.test(secret)) return { ok: false, problem: 'uriSecret' };
  if (secret.replace(/=+$/, '').length < MIN_SECRET_CHARS) return { ok: false, problem: 'uriSecretShort' };
  const algorithm = (params.get('algorithm') ?? 'SHA1').toUpperCase();
  if (!(ALGORITHMS as readonly string[]).includes(algorithm)) return { ok: false, problem: 'uriAlgorithm' };
  const digits = params.get('digits') ?? '6';
  if (!/^[678]$/.test(digits)) return { ok: false, problem: 'uriDigits' };
  const period = params.get('period') ?? '30';
  if (!/^\d{1,3}$/.test(period) || +period < PERIOD_RANGE[0] || +period > PERIOD_RANGE[1]) {
    return { ok: false, problem: 'uriPeriod' };
  }
  let otp: ReturnType<typeof URI.parse>;
  try {
    otp = URI.parse(trimmed);
  } catch {
    return { ok: false, problem: 'uriInvalid' };
  }
  if (!(otp instanceof TOTP) || !otp.label.trim()) return { ok: false, problem: 'uriNoLabel' };
  return {
    ok: true,
    value: {
      issuer: otp.issuer,
      label: otp.label,
      secret: otp.secret.base32,
      algorithm: otp.algorithm as CodeParameters['algorithm'],
      digits: otp.digits,
      period: otp.period,
    },
  };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The code shown at `at` (ms since the epoch), and the seconds left in its period. */
export function codeAt(p: CodeParameters, at: number): { code: string; secondsLeft: number } {
  const totp = new TOTP({ secret: p.secret, algorithm: p.algorithm, digits: p.digits, period: p.period });
  const seconds = Math.floor(at / 1000);
  return { code: totp.generate({ timestamp: at }), secondsLeft: p.period - (seconds % p.period) };
}

/** The code in groups of three (four when 7 or 8 digits: 4+3, 4+4), as authenticator apps show it. */
export function groupCode(code: string): string {
  const head = code.length >= 7 ? 4 : 3;
  return `${code.slice(0, head)} ${code.slice(head)}`;
}

/** An entry's name: 'Issuer: label', or the label alone (or without repeating the issuer). */
export function entryName(p: Pick<CodeParameters, 'issuer' | 'label'>): string {
  return p.issuer && p.issuer !== p.label ? `${p.issuer}: ${p.label}` : p.label;
}
