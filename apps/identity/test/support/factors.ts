import { type Contact, format, paths, smsTemplate } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Context } from '../../src/context.ts';
import { contactCredential } from '../../src/credentials/contacts.ts';
import type { DB } from '../../src/db/database.ts';
import { api, Client, code, createAccount, json } from './harness.ts';

/** Calls and fixtures of the one-time-code second factor (widget spec §2, §4, §7). */

export const PASSWORD = 'Harbor7Lights';
/** The widget's text template (widget spec §3) with the provider's short name. */
export const TEMPLATE = format(smsTemplate, 'PrimeSrv');
export const DAY = 24 * 3_600_000;

export type PhoneInput = { value: string; countryCode?: string | null; voice?: boolean; addedAt?: Date };

/** An account with a second factor due and the given contacts (by default none). */
export async function factorAccount(
  ctx: Context,
  username: string,
  contacts: { phones?: PhoneInput[]; emails?: Array<{ value: string; addedAt?: Date }> } = {},
  options: { secondFactor?: boolean } = {},
) {
  const account = await createAccount(ctx, {
    username,
    password: PASSWORD,
    secondFactor: options.secondFactor ?? true,
  });
  // Contacts are phone and e-mail credentials (credentials/contacts.ts), in the order given.
  const rows = [
    ...(contacts.phones ?? []).map((p) => ({
      ...contactCredential({
        kind: 'phone',
        value: p.value,
        countryCode: p.countryCode === undefined ? '1' : p.countryCode,
        voice: p.voice ?? false,
      }),
      createdAt: p.addedAt ?? new Date(0),
    })),
    ...(contacts.emails ?? []).map((e) => ({
      ...contactCredential({ kind: 'email', value: e.value }),
      createdAt: e.addedAt ?? new Date(0),
    })),
  ];
  for (const row of rows) await ctx.credentials.add({ accountId: account.id, ...row });
  return account;
}

/** The demo shape: a voice phone, a text-only phone added now, an e-mail address. */
export const demoContacts = (username: string, now: Date) => ({
  phones: [
    { value: '2025550143', voice: true },
    { value: '2025550178', voice: false, addedAt: now },
  ],
  emails: [{ value: `${username}@example.com` }],
});

/** Password and session login: the client is in the login transaction with a factor due (1201). */
export async function atFactor(app: FastifyInstance, username: string, client = new Client(app)) {
  expect(code(await client.signInPassword(username, PASSWORD))).toBe(1200);
  const login = await client.sessionLogin();
  expect(code(login)).toBe(1201);
  return client;
}

export const authenticators = (client: Client) => client.get(api(paths.authenticators));
export const otpState = (client: Client, timestamp = String(Date.now())) =>
  client.get(`${api(paths.otpState)}?timestamp=${timestamp}`);

/** The OTP state's contacts (1200 asserted). */
export async function contacts(client: Client): Promise<{ phone: Contact[]; email: Contact[] }> {
  const r = await otpState(client);
  expect(code(r)).toBe(1200);
  return json<{ phone: Contact[]; email: Contact[] }>(r).successData!;
}

export const sendSms = (client: Client, phone: string, message = TEMPLATE) =>
  client.post(api(paths.otpSms), { phone, message });
export const sendVoice = (client: Client, phone: string) => client.post(api(paths.otpVoice), { phone });
export const sendEmail = (client: Client, email: string) => client.post(api(paths.otpEmail), { email });

const checkPaths = { sms: paths.otpSms, voice: paths.otpVoice, email: paths.otpEmail, rep: paths.otpRep };
export const check = (
  client: Client,
  channel: keyof typeof checkPaths,
  securityCode: string,
  bindDevice?: boolean,
) =>
  client.request({
    method: 'PUT',
    url: api(checkPaths[channel]),
    body: { securityCode, ...(bindDevice === undefined ? {} : { bindDevice }) },
  });

/** The newest outbox message to a recipient (full number in E.164, or address). */
export async function latestMessage(db: DB, to: string) {
  return db
    .selectFrom('outbox')
    .selectAll()
    .where('recipient', '=', to)
    .orderBy('sent_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
}

export const trustDevice = (client: Client, bindDevice: boolean) =>
  client.post(api(paths.trustedDevice), { bindDevice });

/**
 * A text code sent to the account's first phone and checked (1200 asserted): at the factor it signs
 * in; in a signed-in session it is a step-up with that phone.
 */
export async function proveTextCode(db: DB, client: Client) {
  const phone = (await contacts(client)).phone[0]!;
  expect(code(await sendSms(client, phone.value))).toBe(1200);
  const sent = await db
    .selectFrom('outbox')
    .select('code')
    .orderBy('sent_at', 'desc')
    .executeTakeFirstOrThrow();
  expect(code(await check(client, 'sms', sent.code!))).toBe(1200);
}
