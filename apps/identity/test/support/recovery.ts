import { paths } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { DB } from '../../src/db/database.ts';
import { api, Client, code, json } from './harness.ts';

/** Calls of the recovery flow (portal spec §7), through a browser-like client. */
export const identify = (client: Client, username: string) =>
  client.post(api(paths.identifyUsername), { username });
export const attributes = (client: Client, which = 'email') =>
  client.get(`${api(paths.identityAttributes)}?attributes=${which}`);
export const sendCode = (client: Client, email: string) => client.post(api(paths.otpEmail), { email });
export const checkCode = (client: Client, securityCode: string) =>
  client.request({ method: 'PUT', url: api(paths.otpEmail), body: { securityCode } });
/** Portal spec §4: send by TEXT, CALL or EMAIL to a masked contact; check a delivery option's code. */
export const sendBy = (client: Client, delivery: 'EMAIL' | 'TEXT' | 'CALL', contact: string) =>
  client.post(api(paths.recoveryCode), { delivery, contact });
export const checkBy = (client: Client, delivery: 'EMAIL' | 'TEXT' | 'CALL' | 'REP', securityCode: string) =>
  client.request({ method: 'PUT', url: api(paths.recoveryCode), body: { delivery, securityCode } });
export const passwordStatus = (client: Client, body?: unknown) =>
  client.post(api(paths.passwordStatus), body);
export const putPassword = (client: Client, body: unknown) =>
  client.request({ method: 'PUT', url: api(paths.passwordEnrollment), body });
export const postPassword = (client: Client, body: unknown) =>
  client.post(api(paths.passwordEnrollment), body);

/** The newest code the development outbox holds for an address. */
export async function latestCode(db: DB, to: string): Promise<string> {
  const row = await db
    .selectFrom('outbox')
    .select('code')
    .where('recipient', '=', to)
    .orderBy('sent_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.code!;
}

/** The masked e-mail the attributes call gives back. */
export async function maskedEmail(client: Client): Promise<string> {
  const response = await attributes(client);
  expect(code(response)).toBe(1200);
  return json<{ email: Array<{ value: string }> }>(response).successData!.email[0]!.value;
}

/** Identify, fetch the masked e-mail, send a code: the client is at the code step. */
export async function atCodeStep(app: FastifyInstance, username: string, client = new Client(app)) {
  expect(code(await identify(client, username))).toBe(1200);
  const masked = await maskedEmail(client);
  expect(code(await sendCode(client, masked))).toBe(1200);
  return { client, masked };
}

/** A recovery flow with a confirmed code. */
export async function confirmed(app: FastifyInstance, db: DB, username: string, client = new Client(app)) {
  await atCodeStep(app, username, client);
  const r = await checkCode(client, await latestCode(db, `${username}@example.com`));
  expect(code(r)).toBe(1200);
  return client;
}

/** A different 6-digit code than the one given. */
export const wrongCode = (right: string) => String((Number(right) + 1) % 1_000_000).padStart(6, '0');
