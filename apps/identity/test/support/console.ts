import { consolePaths, headers as headerNames } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { Secret } from 'otpauth';
import { StaffStore } from '../../src/console/staff.ts';
import type { Context } from '../../src/context.ts';
import { appClock } from './app-codes.ts';
import { api, Client, type Harness, type Response, rememberSecret } from './harness.ts';

/** The password every test staff member is given. */
export const STAFF_PASSWORD = 'Staff-Password-42';
/** The console's own host outside production mode (CONSOLE_ORIGIN unset: console/gate.ts). */
export const CONSOLE_HOST = '127.0.0.1:8080';

/**
 * A browser of the console on the console's host (or the one given): its cookies, and the CSRF
 * token it keeps from the response header.
 */
export class ConsoleClient {
  readonly client: Client;
  token = '';
  constructor(
    app: FastifyInstance,
    options: { remoteAddress?: string } = {},
    readonly host = CONSOLE_HOST,
  ) {
    this.client = new Client(app, options);
  }
  async call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    query = '',
    extra: Record<string, string> = {},
  ) {
    if (!this.token) await this.fetchToken();
    const response = await this.client.request({
      method,
      url: `${api(path)}${query}`,
      ...(body === undefined ? {} : { body }),
      csrf: false,
      headers: { [headerNames.csrf]: this.token, host: this.host, ...extra },
    });
    const next = response.headers[headerNames.csrf.toLowerCase()];
    if (typeof next === 'string') this.token = next;
    return response as Response;
  }
  async fetchToken() {
    const response = await this.client.get(api(consolePaths.consoleSession), { host: this.host });
    this.token = String(response.headers[headerNames.csrf.toLowerCase()] ?? '');
  }
  signInPassword(name: string, password = STAFF_PASSWORD) {
    return this.call('POST', consolePaths.consoleSession, { name, password });
  }
  factor(securityCode: string) {
    return this.call('POST', consolePaths.consoleFactor, { securityCode });
  }
  lookup(username: string) {
    return this.call('POST', consolePaths.consoleCustomer, { username });
  }
  issue(username: string, note = 'Called back on the number on file', purpose?: 'factor' | 'recovery') {
    return this.call('POST', consolePaths.consoleIssueCode, {
      username,
      verification: 'callback',
      note,
      ...(purpose ? { purpose } : {}),
    });
  }
  lift(username: string, action: string, reason = 'Customer verified by call-back') {
    return this.call('POST', consolePaths.consoleLift, { username, action, reason });
  }
  audit(query = '') {
    return this.call('GET', consolePaths.consoleAudit, undefined, query);
  }
}

export type StaffFixture = { name: string; secret: Uint8Array };

/** A staff member with STAFF_PASSWORD, and its authenticator's secret (both kept out of the logs). */
export async function addStaff(
  ctx: Context,
  name: string,
  role: 'representative' | 'supervisor' = 'representative',
  customerUsername?: string,
): Promise<StaffFixture> {
  const store = new StaffStore(ctx.db, ctx.clock, ctx.hasher, ctx.config);
  rememberSecret(STAFF_PASSWORD);
  const { totpSecret } = await store.add({ name, role, password: STAFF_PASSWORD, customerUsername });
  rememberSecret(totpSecret);
  return { name, secret: new Uint8Array(Secret.fromBase32(totpSecret).buffer) };
}

/** The staff member's authenticator code now (the harness's clock moved to a new time step first). */
export function staffCode(h: Pick<Harness, 'clock'>, staff: StaffFixture) {
  const { codeOf, nextStep } = appClock(h);
  nextStep();
  return codeOf(staff.secret);
}
