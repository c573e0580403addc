import { randomBytes } from 'node:crypto';
import { headers as headerNames, paths } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../src/context.ts';
import { codeAt, timeStep } from '../../src/factors/app-codes.ts';
import { atFactor, factorAccount } from './factors.ts';
import { api, type Client, code, type Harness } from './harness.ts';

/**
 * Calls and fixtures of the authenticator app (TOTPAUTHN) and the token app (TOTPSVIP): codes
 * computed from the credential's secret as the apps would, on the test clock.
 */

export const STEP = 30_000;
const SHA1 = { algorithm: 'SHA1', digits: 6 } as const;

/** The limits a test does not count, out of the way. */
export const WIDE_LIMITS = {
  CODE_CHECK_SESSION_MAX: '10000',
  CODE_CHECK_ACCOUNT_MAX: '10000',
  RECOVERY_CHECK_CLIENT_MAX: '10000',
  SECURITY_RATE_MAX: '10000',
  RATE_LIMIT_ACCOUNT_MAX: '10000',
  RATE_LIMIT_CLIENT_MAX: '10000',
};

const withBind = (bindDevice?: boolean) => (bindDevice === undefined ? {} : { bindDevice });
export const totpCheck = (client: Client, securityCode: string, bindDevice?: boolean) =>
  client.post(api(paths.totpAuthentication), { securityCode, ...withBind(bindDevice) });
export const tokenStatus = (client: Client) => client.get(api(paths.svipStatus));
export const tokenCheck = (
  client: Client,
  credentialId: string,
  securityCode1: string,
  bindDevice?: boolean,
) => client.post(api(paths.svipAuthentication), { credentialId, securityCode1, ...withBind(bindDevice) });
export const tokenSync = (client: Client, securityCode1: string, securityCode2: string) =>
  client.post(api(paths.svipSynchronization), { securityCode1, securityCode2 });

/** Another code than `right` (a wrong guess). */
export const wrongOf = (right: string) => String((Number(right) + 500_001) % 1_000_000).padStart(6, '0');

/** The same request, sent by one browser once per body, all at once. */
export function burst(app: FastifyInstance, client: Client, url: string, bodies: unknown[], method = 'POST') {
  const headers = {
    cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    [headerNames.csrf]: client.cookies.get('XSRF-TOKEN')!,
    'content-type': 'application/json',
  };
  return Promise.all(
    bodies.map((body) =>
      app.inject({ method: method as 'POST' | 'PUT', url, headers, payload: JSON.stringify(body) }),
    ),
  );
}

/** An authenticator app of the account, added at `addedAt` (default: long ago, established, as seeded: decision 030). */
export async function addApp(ctx: Context, accountId: string, addedAt = new Date(0)) {
  const secret = randomBytes(20);
  const credential = await ctx.credentials.add({
    accountId,
    kind: 'totp',
    name: 'Authenticator app',
    secret,
    data: { algorithm: 'SHA1', digits: 6, period: 30 },
    createdAt: addedAt,
  });
  return { secret, credential };
}

/** A token (VIP Access) of the account with the given serial, added long ago (established). */
export async function addToken(ctx: Context, accountId: string, credentialId: string) {
  const secret = randomBytes(20);
  const credential = await ctx.credentials.add({
    accountId,
    kind: 'token',
    name: 'VIP Access',
    publicPart: credentialId,
    secret,
    data: { algorithm: 'SHA1', digits: 6, period: 30, drift: 0 },
    createdAt: new Date(0),
  });
  return { secret, credential, credentialId };
}

/** Codes on the harness's test clock. */
export function appClock(h: Pick<Harness, 'clock'>) {
  return {
    /** The code of an app whose clock runs `offset` steps from the server's. */
    codeOf: (secret: Uint8Array, offset = 0) => codeAt(secret, timeStep(h.clock.now(), 30) + offset, SHA1),
    /** Moves the test clock to 1 s into the next time step (a new code; a test's codes do not cross a step). */
    nextStep() {
      const into = h.clock.now().getTime() % STEP;
      h.clock.advance(STEP - into + 1000);
    },
  };
}

/** An account with a factor due, an e-mail address and an established authenticator app. */
export async function appAccount(ctx: Context, username: string) {
  const account = await factorAccount(ctx, username, { emails: [{ value: `${username}@example.com` }] });
  return { account, ...(await addApp(ctx, account.id)) };
}
/** An account with a factor due, an e-mail address and an established token. */
export async function tokenAccount(ctx: Context, username: string) {
  const account = await factorAccount(ctx, username, { emails: [{ value: `${username}@example.com` }] });
  return { account, ...(await addToken(ctx, account.id, 'VSST87654321')) };
}

/** Three journeys to the token screen, two wrong codes in each: the answers' status codes. */
export async function wrongTokenJourneys(
  app: FastifyInstance,
  username: string,
  credentialId: string,
  rightCode: () => string,
) {
  const answers: number[] = [];
  for (let journey = 0; journey < 3; journey++) {
    const browser = await atFactor(app, username);
    for (let i = 0; i < 2; i++)
      answers.push(code(await tokenCheck(browser, credentialId, wrongOf(rightCode()))));
  }
  return answers;
}
