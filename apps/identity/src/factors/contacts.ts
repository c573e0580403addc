import type { Contact } from '@gatehouse/contract';
import type { Context } from '../context.ts';
import type { DB } from '../db/database.ts';
import type { Contact as ContactRow } from '../db/schema.ts';
import { maskEmail, maskPhoneLabel } from '../lib/mask.ts';

/**
 * An account's contacts (phones and e-mail addresses) as the one-time-code factor and the OTP
 * screens use them (widget spec §2 "OTP contact screen", §3 Contact, §5).
 */

/** An account's contacts, oldest first. */
export function accountContacts(db: DB, accountId: string): Promise<ContactRow[]> {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('added_at')
    .orderBy('id')
    .execute();
}

/** The full number in E.164 form (what the text/voice gateway and the outbox get). */
export function e164(contact: Pick<ContactRow, 'value' | 'country_code'>): string {
  const digits = contact.value.replace(/\D/g, '');
  return `+${contact.country_code?.replace(/\D/g, '') || '1'}${digits}`;
}

/** Usable: added at least CONTACT_WAIT_DAYS ago (widget spec §5: newly added contacts wait). */
export function contactEnabled(ctx: Context, contact: ContactRow): boolean {
  return ctx.clock.now().getTime() - new Date(contact.added_at).getTime() >= ctx.config.factor.contactWaitMs;
}

/** The label a contact is shown with: masked, never the full number or address. */
export function contactLabel(contact: ContactRow): string {
  return contact.kind === 'phone'
    ? maskPhoneLabel(contact.value, contact.country_code)
    : maskEmail(contact.value);
}

/** A contact as the OTP state call gives it: `value` is the contact's id, an opaque handle. */
export function contactView(ctx: Context, contact: ContactRow): Contact {
  return {
    type: contact.kind === 'phone' ? 'TEXT' : 'EMAIL',
    value: contact.id,
    ...(contact.kind === 'phone' && contact.country_code ? { countryCode: contact.country_code } : {}),
    label: contactLabel(contact),
    enable: contactEnabled(ctx, contact),
  };
}
