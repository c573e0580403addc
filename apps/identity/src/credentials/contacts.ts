import type { Contact } from '@gatehouse/contract';
import type { Context } from '../context.ts';
import type { DB } from '../db/database.ts';
import type { Contact as ContactRow } from '../db/schema.ts';
import { maskEmail, maskPhoneLabel } from '../lib/mask.ts';
import { mayUse } from '../security/credential-policy.ts';
import type { Credential } from './store.ts';

/**
 * Contacts: the phone and e-mail credentials of an account, as the OTP screens and the one-time-code
 * factor use them (widget spec §3 Contact, §5). A contact's id is its credential's id.
 */

type ContactCredential = {
  id: string;
  account_id: string;
  kind: string;
  public_part: string | null;
  data: unknown;
  created_at: Date | string;
};

/** A phone or e-mail credential in the contact shape (value, country_code, voice, added_at). */
export function toContact(row: ContactCredential): ContactRow {
  const data = (typeof row.data === 'string' ? JSON.parse(row.data) : (row.data ?? {})) as {
    countryCode?: string | null;
    voice?: boolean;
  };
  return {
    id: row.id,
    account_id: row.account_id,
    kind: row.kind,
    value: row.public_part ?? '',
    country_code: row.kind === 'phone' ? (data.countryCode ?? null) : null,
    voice: row.kind === 'phone' && data.voice === true,
    added_at: new Date(row.created_at),
  };
}

/** A credential read through the store, in the contact shape. */
export const contactOf = (c: Credential): ContactRow =>
  toContact({
    id: c.id,
    account_id: c.accountId,
    kind: c.kind,
    public_part: c.publicPart,
    data: c.data,
    created_at: c.createdAt,
  });

/** The credential fields of a new phone or e-mail contact (what seeding and tests insert). */
export function contactCredential(contact: {
  kind: 'phone' | 'email';
  value: string;
  countryCode?: string | null;
  voice?: boolean;
}): { kind: 'phone' | 'email'; name: string; publicPart: string; data: Record<string, unknown> } {
  return contact.kind === 'phone'
    ? {
        kind: 'phone',
        name: 'Phone',
        publicPart: contact.value,
        data: { countryCode: contact.countryCode ?? null, voice: contact.voice ?? false },
      }
    : { kind: 'email', name: 'E-mail', publicPart: contact.value, data: {} };
}

/** An account's contacts (phone and e-mail credentials), oldest first. */
export async function accountContacts(db: DB, accountId: string): Promise<ContactRow[]> {
  const rows = await db
    .selectFrom('credentials')
    .select(['id', 'account_id', 'kind', 'public_part', 'data', 'created_at'])
    .where('account_id', '=', accountId)
    .where('kind', 'in', ['phone', 'email'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toContact);
}

/** The full number in E.164 form (what the text/voice gateway and the outbox get). */
export function e164(contact: Pick<ContactRow, 'value' | 'country_code'>): string {
  const digits = contact.value.replace(/\D/g, '');
  return `+${contact.country_code?.replace(/\D/g, '') || '1'}${digits}`;
}

/**
 * Usable: added at least CONTACT_WAIT_DAYS ago (widget spec §5: newly added contacts wait), as the
 * credential policy decides for every kind (security/credential-policy.ts).
 */
export function contactEnabled(ctx: Context, contact: ContactRow): boolean {
  return mayUse(ctx, contact, 'signIn');
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
