import { outcomeTables, Status } from '@gatehouse/contract/client';
import { describe, expect, it } from 'vitest';
import { routes } from '../routes.ts';
import { calls } from './calls.ts';
import '../screens/Routes.tsx'; // the factors' calls join with their screens
import { interpret, interpretPush, statusTableOf, UnmappedStatusError } from './status-tables.ts';

/** Widget spec §4, line by line. */
const spec: Array<[keyof typeof calls, number, unknown]> = [
  ['passwordAuthentication', 1200, { kind: 'FORWARD', call: 'sessionLogin' }],
  ['passwordAuthentication', 1203, { kind: 'REDIRECT', to: routes.blocked, state: { reason: 'reset' } }],
  // Not in the spec: a fraud report's lock is its own page, not the attempts' lockout (docs/api.md).
  ['passwordAuthentication', 1206, { kind: 'REDIRECT', to: routes.blocked, state: { reason: 'fraud' } }],
  // §8 'Security blocked': the blocked page with the spec's text (the server names /blocked).
  [
    'passwordAuthentication',
    1401,
    { kind: 'REDIRECT', to: routes.error, state: { reason: 'securityBlocked' } },
  ],
  ['passwordAuthentication', 1403, { kind: 'ERROR', message: 'error.incorrectCredentials' }],
  ['passwordAuthentication', 4000, { kind: 'ERROR', message: 'error.incorrectCredentials' }],
  ['sessionLogin', 1200, { kind: 'CUSTOM', name: 'callbacks' }],
  ['sessionLogin', 1201, { kind: 'CUSTOM', name: 'callbacks' }],
  ['sessionLogin', 1202, { kind: 'CUSTOM', name: 'callbacks' }],
  ['sessionLogin', 1401, { kind: 'REDIRECT', to: routes.error }],
  ['sessionLogin', 1403, { kind: 'REDIRECT', to: routes.blocked, state: { reason: 'securityBlocked' } }],
  ['otpSendSms', 1200, { kind: 'REDIRECT', to: routes.authenticatorOtpCode }],
  [
    'otpSendVoice',
    1224,
    { kind: 'REDIRECT', to: routes.authenticatorOtpCode, state: { carrierOutage: true } },
  ],
  ['otpSendEmail', 1491, { kind: 'REDIRECT', to: routes.authenticatorRep, state: { reason: 'limit' } }],
  ['otpCheckSms', 1200, { kind: 'SUCCESS' }],
  // §4 OTP flow, §5: a failed code check shows the server's text.
  ['otpCheckEmail', 1205, { kind: 'ERROR', message: 'error.incorrectCode', server: true }],
  ['otpCheckVoice', 1428, { kind: 'ERROR', message: 'error.incorrectCode', server: true }],
  ['otpCheckRep', 1491, { kind: 'REDIRECT', to: routes.authenticatorRep, state: { reason: 'limit' } }],
  // §4 token flow: 'Sync submit follows the server redirect'.
  ['svipSynchronization', 1200, { kind: 'FOLLOW' }],
  ['totpAuthentication', 1200, { kind: 'SUCCESS' }],
  ['totpAuthentication', 1201, { kind: 'CUSTOM', name: 'totpCustom' }],
  ['totpAuthentication', 1202, { kind: 'REDIRECT', to: routes.authenticatorRep }],
  ['totpAuthentication', 1204, { kind: 'REDIRECT', to: routes.authenticatorRep }],
  ['totpAuthentication', 1493, { kind: 'REDIRECT', to: routes.authenticatorRep }],
  ['totpAuthentication', 1491, { kind: 'REDIRECT', to: routes.authenticatorTotpBlock }],
  ['changeUsername', 1200, { kind: 'REDIRECT', to: routes.usernameConfirmation }],
  ['changeUsername', 1400, { kind: 'ERROR', message: 'error.usernameGuidelines' }],
  ['changeUsername', 1485, { kind: 'ERROR', message: 'error.usernameGuidelines', server: true }],
  ['changeUsername', 1403, { kind: 'ERROR', message: 'error.wrongPassword' }],
  ['changeUsername', 1474, { kind: 'ERROR', message: 'error.usernameTaken' }],
  ['changeUsername', 1481, { kind: 'ERROR', message: 'error.usernameMinLength' }],
  ['changeUsername', 1482, { kind: 'ERROR', message: 'error.usernameMaxLength' }],
  ['changeUsername', 1483, { kind: 'ERROR', message: 'error.usernameNoAlpha' }],
  ['changeUsername', 1484, { kind: 'ERROR', message: 'error.usernameInvalidCharacter' }],
];

describe('status tables (widget spec §4)', () => {
  it.each(spec)('%s %i', (call, code, action) => {
    expect(interpret(call, { code, message: 'm' })).toEqual(action);
  });

  it('has a table for every call of spec §7', () => {
    for (const call of Object.keys(calls) as (keyof typeof calls)[])
      expect(Object.keys(statusTableOf(call)).length, call).toBeGreaterThan(0);
  });

  it('throws for an unmapped status, naming call, type, code and message', () => {
    let error: unknown;
    try {
      interpret('passwordAuthentication', { code: 1999, message: 'Odd answer' }, 'SYSTEM_ERROR');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnmappedStatusError);
    expect((error as Error).message).toBe(
      'Unmapped status for call passwordAuthentication: type SYSTEM_ERROR, code 1999, message "Odd answer"',
    );
    expect(() => interpret('sessionLogin', { code: Status.UNKNOWN, message: 'Unknown error' })).toThrow(
      /code 5000/,
    );
  });

  it('ignores any failure of the device-binding follow-up call (spec §4)', () => {
    expect(interpret('trustedDevice', { code: 1403, message: 'no' })).toEqual({ kind: 'SUCCESS' });
    expect(interpret('trustedDevice', { code: 5000, message: 'Unknown error' })).toEqual({ kind: 'SUCCESS' });
  });

  it('maps every push status of spec §4', () => {
    expect(interpretPush('PENDING')).toBe('poll');
    expect(interpretPush('COMPLETED_SUCCESSFUL')).toBe('continue');
    expect(interpretPush('DECLINED')).toBe('denied');
    expect(interpretPush('FRAUD')).toBe('denied');
    for (const s of ['EXPIRED_PENDING', 'EXPIRED_FAILURE', 'COMPLETED_FAILURE'])
      expect(interpretPush(s)).toBe('failure');
    expect(interpretPush('SOMETHING_NEW')).toBe('poll');
    // A name an object has of its own accord is a status like any other: it keeps polling.
    expect(interpretPush('constructor')).toBe('poll');
    expect(interpretPush('toString')).toBe('poll');
  });

  it("each call's method and path are those of its outcome table (the table the answers are read with)", () => {
    for (const [name, call] of Object.entries(calls)) {
      const table = outcomeTables[name as keyof typeof outcomeTables];
      expect(table, name).toBeDefined();
      expect({ method: call.method, path: call.path }, name).toEqual({
        method: table.method,
        path: table.path,
      });
    }
  });
});
