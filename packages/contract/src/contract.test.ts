import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  customerPaths,
  declaredPaths,
  format,
  newRequestId,
  paths,
  requestIdPattern,
  Status,
  securityActivityKey,
  statusOf,
  UNKNOWN_ERROR,
} from './index.ts';

describe('contract', () => {
  it("declares the specs' uncalled paths as they write them (portal spec §7, widget spec §7), apart from the called ones", () => {
    expect(declaredPaths).toEqual({
      servicingLogsCollector: '/servicing/logs/collector',
      servicingSignin: '/servicing/signin',
      idp: '/IDP',
    });
    expect(customerPaths.passwordEnrollment).toBe('/user/factor/password/enrollment');
    const called = new Set<string>(Object.values(customerPaths));
    for (const path of Object.values(declaredPaths)) expect(called.has(path), path).toBe(false);
  });

  it('makes request ids of REQ and 32 random alphanumerics, never the same twice', () => {
    const ids = new Set(Array.from({ length: 500 }, newRequestId));
    expect(ids.size).toBe(500);
    for (const id of ids) expect(id).toMatch(requestIdPattern);
    expect([...ids][0]).toHaveLength(35);
  });

  it('fills {n} placeholders and leaves missing ones visible', () => {
    expect(format('Wait {0} seconds, {1}.', 30, 'please')).toBe('Wait 30 seconds, please.');
    expect(format('Send to {0} and {1}', 'a')).toBe('Send to a and {1}');
    fc.assert(fc.property(fc.string(), (s) => format('{0}', s) === s));
  });

  it('reads the status of an envelope, the error of a failure, and 5000 for anything else', () => {
    const base = { responseBaseInfo: { requestId: 'r', status: { code: 1403, message: 'm' } } };
    expect(statusOf(base)).toEqual({ code: 1403, message: 'm' });
    expect(
      statusOf({ ...base, errorType: 'APPLICATION_ERROR', error: { code: 1401, message: 'e' } }),
    ).toEqual({
      code: 1401,
      message: 'e',
    });
    expect(statusOf('<html>')).toEqual(UNKNOWN_ERROR);
    expect(statusOf(null)).toEqual({ code: 5000, message: 'Unknown error' });
  });

  it('names the paths of both specs exactly', () => {
    expect(paths.passwordAuthentication).toBe('/user/factor/password/authentication');
    expect(paths.sessionLogout).toBe('/user/session/login/');
    expect(paths.otpEmail).toBe('/user/factor/otp/email/authentication');
    expect(Status.UNKNOWN).toBe(5000);
  });
});

describe('securityActivityKey', () => {
  it("names an audit event's own line, and `activity.other` for any other name, however hostile", () => {
    expect(securityActivityKey('sign-in')).toBe('activity.sign-in');
    expect(securityActivityKey('security.contact-added')).toBe('activity.security.contact-added');
    for (const event of ['no-such-event', '', 'other', 'toString', '__proto__', 'constructor', 'sign-in ']) {
      expect(securityActivityKey(event)).toBe('activity.other');
    }
    fc.assert(
      fc.property(fc.string(), (event) => {
        const key = securityActivityKey(event);
        expect(key === `activity.${event}` || key === 'activity.other').toBe(true);
      }),
    );
  });
});
