import { consolePaths, headers as headerNames } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { api, Client, type Response } from './harness.ts';

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
  issue(username: string, note = 'Called back on the number on file') {
    return this.call('POST', consolePaths.consoleIssueCode, { username, verification: 'callback', note });
  }
  lift(username: string, action: string, reason = 'Customer verified by call-back') {
    return this.call('POST', consolePaths.consoleLift, { username, action, reason });
  }
  audit(query = '') {
    return this.call('GET', consolePaths.consoleAudit, undefined, query);
  }
}
