/**
 * How contacts are shown: masked, never the full address or number. The portal's attributes call
 * (portal spec §2) and the widget's OTP screens (widget spec §2) each have their own phone form.
 */

/** Masks an e-mail address: first and last character of the local part, four stars, the domain. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '****';
  const local = address.slice(0, at);
  const last = local.length > 1 ? local[local.length - 1] : '';
  return `${local[0]}****${last}${address.slice(at)}`;
}

/** Masks a phone number: only its last four digits show. */
export function maskPhone(number: string): string {
  const digits = number.replace(/\D/g, '');
  return `******${digits.slice(-4)}`;
}

/** North American numbers (country code 1, or none given) are shown as in widget spec §2. */
const isNorthAmerican = (countryCode: string | null) => !countryCode || countryCode === '1';

/** The masked label of a phone: '(XXX) XXX-0143' for US numbers, '+44 XXXXXX7890' for others. */
export function maskPhoneLabel(number: string, countryCode: string | null): string {
  const last = number.replace(/\D/g, '').slice(-4);
  return isNorthAmerican(countryCode) ? `(XXX) XXX-${last}` : `+${countryCode} XXXXXX${last}`;
}
