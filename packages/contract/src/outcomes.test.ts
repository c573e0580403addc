import { describe, expect, it } from 'vitest';
import { consoleOutcomeDocs, genericOutcomeDocs, outcomeDocs } from './outcome-docs.ts';
import {
  type CallName,
  type Codes,
  callOf,
  clientAction,
  genericOutcomes,
  type OutcomeTable,
  outcomeMessages,
  outcomesOf,
  outcomeTables,
} from './outcomes.ts';
import { type AnyCallName, allOutcomeTables, anyCallOf, securityClientAction } from './security-outcomes.ts';
import { serverMessages } from './server-messages.ts';
import { Status } from './status.ts';

const tables = Object.entries(allOutcomeTables) as Array<[AnyCallName, OutcomeTable]>;
const docsOf = (call: string): Readonly<Record<number, string>> =>
  (outcomeDocs as Record<string, Record<number, string>>)[call] ??
  (consoleOutcomeDocs as Record<string, Record<number, string>>)[call]!;
const statusCodes = new Set<number>(Object.values(Status));

describe('outcome tables', () => {
  it('name each call once by method and path', () => {
    const keys = tables.map(([, t]) => `${t.method} ${t.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [call, table] of tables) expect(anyCallOf(table.method, table.path)).toBe(call);
    for (const [call, table] of Object.entries(outcomeTables) as Array<[CallName, OutcomeTable]>)
      expect(callOf(table.method, table.path)).toBe(call);
    // The specs' callOf (the clients') does not know the console's calls.
    expect(callOf('GET', '/console/audit')).toBeUndefined();
    expect(callOf('GET', '/no/such/path')).toBeUndefined();
    expect(anyCallOf('GET', '/no/such/path')).toBeUndefined();
  });

  it('hold only status codes of the contract, with message keys of serverMessages', () => {
    for (const [call, table] of tables) {
      for (const [code, outcome] of Object.entries(outcomesOf(table))) {
        expect(statusCodes.has(Number(code)), `${call} ${code}`).toBe(true);
        for (const key of outcomeMessages(outcome))
          expect(serverMessages, `${call} ${code}`).toHaveProperty(key);
        expect([200, 204, 400, 401, 403, 404, 429, 500, 503], `${call} ${code}`).toContain(outcome.http);
      }
    }
  });

  it('repeat a generic code only with its HTTP status', () => {
    for (const [call, table] of tables) {
      for (const [code, outcome] of Object.entries(table.codes as Codes)) {
        const generic = genericOutcomes[Number(code)];
        if (generic) expect(outcome.http, `${call} ${code}`).toBe(generic.http);
      }
    }
  });

  it('describe every code they hold, and nothing else', () => {
    for (const [call, table] of tables) {
      const codes = outcomesOf(table);
      for (const code of Object.keys(docsOf(call))) expect(codes, `${call} ${code}`).toHaveProperty(code);
      for (const code of Object.keys(table.codes))
        expect(docsOf(call)[Number(code)], `${call} ${code}`).toBeTruthy();
    }
    for (const code of Object.keys(genericOutcomes)) expect(genericOutcomeDocs[Number(code)]).toBeTruthy();
  });

  it('give the spec lines of widget spec §4 and portal spec §4 their actions', () => {
    expect(clientAction('passwordAuthentication', 1200)).toEqual({ kind: 'FORWARD', call: 'sessionLogin' });
    expect(clientAction('sessionLogin', 1401)).toEqual({ kind: 'REDIRECT', to: 'error' });
    expect(clientAction('otpSendSms', 1224)).toEqual({
      kind: 'REDIRECT',
      to: 'authenticatorOtpCode',
      state: { carrierOutage: true },
    });
    expect(clientAction('passwordStatus', 1201)).toEqual({ kind: 'FORWARD', call: 'passwordEnrollmentPost' });
    expect(clientAction('passwordStatus', 1205)).toEqual({ kind: 'FORWARD', call: 'passwordEnrollmentPut' });
    // A code a table does not hold has no action (the widget then throws its unmapped-status error).
    expect(clientAction('sessionLogin', 5000)).toBeUndefined();
  });

  it('serve every call of the specs; the token and authenticator-app tables keep the widget spec §4 actions', () => {
    expect(clientAction('totpAuthentication', 1200)).toEqual({ kind: 'SUCCESS' });
    expect(clientAction('totpAuthentication', 1201)).toEqual({ kind: 'CUSTOM', name: 'totpCustom' });
    for (const status of [1202, 1204, 1493]) {
      expect(clientAction('totpAuthentication', status)).toEqual({
        kind: 'REDIRECT',
        to: 'authenticatorRep',
      });
    }
    expect(clientAction('totpAuthentication', 1491)).toEqual({
      kind: 'REDIRECT',
      to: 'authenticatorTotpBlock',
    });
    expect(clientAction('svipAuthentication', 1491)).toEqual({
      kind: 'REDIRECT',
      to: 'authenticatorSvipSync',
    });
    expect(clientAction('svipSynchronization', 1200)).toEqual({ kind: 'FOLLOW' });
    // Codes the spec maps that this server does not answer stay, marked, for the widget.
    expect((outcomeTables.totpAuthentication.codes as Codes)[1201]?.unsent).toBe(true);
    expect((outcomeTables.totpAuthentication.codes as Codes)[1491]?.unsent).toBeUndefined();
  });

  it('keep the security page, the device app and the console apart from the tables the login routes carry; every security call asks for a step-up', () => {
    for (const call of Object.keys(allOutcomeTables)) {
      expect(/^(security|device|devDemo|console)/.test(call), call).toBe(!(call in outcomeTables));
    }
    for (const call of Object.keys(allOutcomeTables).filter((c) => c.startsWith('security'))) {
      expect(securityClientAction(call as never, 1412)).toEqual({ kind: 'ERROR', error: 'stepUpRequired' });
      expect((allOutcomeTables[call as AnyCallName].codes as Codes)[1412]?.http).toBe(403);
    }
  });
});
