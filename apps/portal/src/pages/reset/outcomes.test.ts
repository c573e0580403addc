import { type CallName, outcomeDoc, outcomesOf, outcomeTables } from '@gatehouse/contract';
import { describe, expect, it } from 'vitest';
import { passwordUpdate400, updateBlocked, updateSuccess } from './statusTable.ts';

/** The reset screen's status codes against the contract's outcome tables, which the server answers from. */
describe('the reset screen against the outcome tables', () => {
  it.each<CallName>(['passwordEnrollmentPut', 'passwordEnrollmentPost'])(
    'every code the reset screen maps for %s is in its outcome table, and one it is never sent says why',
    (call) => {
      const outcomes = outcomesOf(outcomeTables[call]);
      const codes = [...Object.keys(passwordUpdate400).map(Number), ...updateSuccess, ...updateBlocked];
      expect(codes.length).toBeGreaterThan(10);
      for (const code of codes) {
        const entry = outcomes[code];
        expect(
          entry,
          `the reset screen maps ${code} for ${call}, which its outcome table does not hold`,
        ).toBeDefined();
        if (entry?.unsent) expect(outcomeDoc(call, code), `${call} ${code}`).toMatch(/^Not sent/);
      }
    },
  );
});
