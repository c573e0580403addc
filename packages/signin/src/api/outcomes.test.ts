import { type CallName, outcomeDoc, outcomesOf, outcomeTables, Status } from '@gatehouse/contract';
import { describe, expect, it } from 'vitest';
import '../screens/Routes.tsx'; // the factors' calls join with their screens
import { calls } from './calls.ts';
import { statusTableOf } from './status-tables.ts';

/** The widget's status tables against the contract's outcome tables, which the server answers from. */
describe('the widget against the outcome tables', () => {
  it('every code the widget maps is in the outcome table of that call, and one it is never sent says why', () => {
    let checked = 0;
    for (const call of Object.keys(calls) as (keyof typeof calls)[]) {
      const table = statusTableOf(call);
      const outcomes = outcomesOf(outcomeTables[call as CallName]);
      for (const code of Object.keys(table).map(Number)) {
        const entry = outcomes[code];
        expect(
          entry,
          `the widget maps ${code} for ${call}, which its outcome table does not hold`,
        ).toBeDefined();
        // A code the server does not send is there only because a spec gives it the call: the
        // table marks it and says why.
        if (entry?.unsent) expect(outcomeDoc(call as CallName, code), `${call} ${code}`).toMatch(/^Not sent/);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(70);
  });

  it('maps the spec lines where the outcome tables put them', () => {
    // A spot check of the spec lines (status-tables.test.ts holds every line of widget spec §4).
    expect(statusTableOf('passwordAuthentication')[Status.FORBIDDEN]).toEqual({
      kind: 'ERROR',
      message: 'error.incorrectCredentials',
    });
    expect(statusTableOf('otpSendSms')[Status.LIMIT_REACHED]).toEqual({
      kind: 'REDIRECT',
      to: '/authenticator/rep',
      state: { reason: 'limit' },
    });
  });
});
