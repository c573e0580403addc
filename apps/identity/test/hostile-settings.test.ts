import { loneSurrogateMessage, paths, securityPaths } from '@gatehouse/contract';
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { StaffStore } from '../src/console/staff.ts';
import { cleanClientText, luhnValid } from '../src/plugins/client-logs.ts';
import { addApp, appClock, totpCheck } from './support/app-codes.ts';
import { TestDevice } from './support/device.ts';
import { atFactor, demoContacts, factorAccount, proveTextCode } from './support/factors.ts';
import {
  api,
  baseEnv,
  Client,
  code,
  createAccount,
  expectFailureEnvelope,
  productionMail,
  productionSecret,
  rememberSecret,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * Hostile input and settings (issue 22, build point 6): lone surrogates refused by the contract's
 * text helper on every field, production refusing a frame-ancestors wildcard and the published demo
 * data, and the client log collector redacting card numbers, national ids, base32 secrets and
 * password-shaped words of any case.
 */

const production = {
  NODE_ENV: 'production',
  SESSION_SECRET: productionSecret,
  ...productionMail,
};

/** A string with one lone surrogate (high or low) somewhere in printable text. */
const withLoneSurrogate = fc
  .tuple(
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.integer({ min: 0xd800, max: 0xdfff }),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
  )
  .map(([before, unit, after]) => `${before}${String.fromCharCode(unit)}${after}`);

describe.each(targets)('lone surrogates ($name)', (target) => {
  const h = useHarness(target);
  const { codeOf, nextStep } = appClock(h);

  test('a device name with a lone surrogate: 400 naming the field, and no device, no audit row', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'surrogate01', demoContacts('surrogate01', new Date(0)));
    // A session that proved a text code just now: the registration's other conditions hold.
    const browser = await atFactor(app, 'surrogate01');
    await proveTextCode(h.db, browser);
    const device = await TestDevice.create(h.clock);

    await fc.assert(
      fc.asyncProperty(withLoneSurrogate, async (name) => {
        const r = await browser.post(api(paths.deviceRegister), {
          publicKey: device.publicKey,
          name,
          proof: await device.proof('register'),
        });
        const envelope = expectFailureEnvelope(r, 400, 4400);
        expect(envelope.responseBaseInfo.status.message).toBe(
          `The request is not valid: name: ${loneSurrogateMessage}`,
        );
      }),
      { numRuns: 40 },
    );
    // The exact value of the finding.
    const finding = await browser.post(api(paths.deviceRegister), {
      publicKey: device.publicKey,
      name: 'Phone \ud800',
      proof: await device.proof('register'),
    });
    expectFailureEnvelope(finding, 400, 4400);

    const pushCredentials = await h.db
      .selectFrom('credentials')
      .select('id')
      .where('account_id', '=', account.id)
      .where('kind', '=', 'push')
      .execute();
    expect(pushCredentials).toEqual([]);
    const registered = await h.db
      .selectFrom('audit_events')
      .select('event')
      .where('event', 'like', 'device-%')
      .execute();
    expect(registered).toEqual([]);
  });

  test('every endpoint that takes a name or a username refuses a lone surrogate in it: 400, never 500', async () => {
    const { app, ctx } = await h.start();
    const account = await createAccount(ctx, { username: 'surrogate02', password: 'Harbor7Lights' });
    const signedIn = new Client(app);
    await signedIn.signIn('surrogate02', 'Harbor7Lights');
    // The security page's calls are for a session that stepped up (decision 038: the guard
    // answers before the body is read), so those go from a second session that proved its app.
    const { secret } = await addApp(ctx, account.id);
    const steppedUp = new Client(app);
    await steppedUp.signIn('surrogate02', 'Harbor7Lights');
    nextStep();
    expect(code(await totpCheck(steppedUp, codeOf(secret)))).toBe(1200);
    const device = await TestDevice.create(h.clock);
    const enrolled = await device.enrol(ctx, account.id);
    const deviceClient = new Client(app);

    type Call = {
      method: 'POST' | 'PUT';
      path: string;
      field: string;
      body: (s: string) => object;
      steppedUp?: true;
    };
    const calls: Call[] = [
      {
        method: 'POST',
        path: paths.passwordAuthentication,
        field: 'username',
        body: (s) => ({ username: s, password: 'Harbor7Lights' }),
      },
      {
        method: 'POST',
        path: paths.passwordAuthentication,
        field: 'password',
        body: (s) => ({ username: 'surrogate02', password: s }),
      },
      { method: 'POST', path: paths.identifyUsername, field: 'username', body: (s) => ({ username: s }) },
      { method: 'POST', path: paths.passwordStatus, field: 'username', body: (s) => ({ username: s }) },
      {
        method: 'PUT',
        path: paths.rememberUsername,
        field: 'username',
        body: (s) => ({ username: s, operation: 'ADD' }),
      },
      {
        method: 'PUT',
        path: paths.changeUsername,
        field: 'username',
        body: (s) => ({ username: s, password: 'Harbor7Lights' }),
      },
      {
        method: 'POST',
        path: securityPaths.securityAuthenticatorConfirmation,
        field: 'name',
        steppedUp: true,
        body: (s) => ({
          enrollmentId: '00000000-0000-4000-8000-000000000000',
          securityCode: '123456',
          name: s,
        }),
      },
      {
        method: 'POST',
        path: securityPaths.securityContacts,
        field: 'value',
        steppedUp: true,
        body: (s) => ({ kind: 'email', value: s }),
      },
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...calls), withLoneSurrogate, async (call, value) => {
        const r = await (call.steppedUp ? steppedUp : signedIn).request({
          method: call.method,
          url: api(call.path),
          body: call.body(value),
        });
        const context = `${call.method} ${call.path} -> ${r.statusCode} ${r.body.slice(0, 200)}`;
        expect(r.statusCode, context).toBe(400);
        expect(expectFailureEnvelope(r, 400, 4400).responseBaseInfo.status.message, context).toBe(
          `The request is not valid: ${call.field}: ${loneSurrogateMessage}`,
        );
      }),
      { numRuns: 120 },
    );
    // The device app's rename takes a name too (a proof, no session).
    await fc.assert(
      fc.asyncProperty(withLoneSurrogate, async (name) => {
        const r = await deviceClient.post(api(paths.deviceRename), {
          id: enrolled.id,
          name,
          proof: await device.proof(`rename:${enrolled.id}`),
        });
        expect(expectFailureEnvelope(r, 400, 4400).responseBaseInfo.status.message).toBe(
          `The request is not valid: name: ${loneSurrogateMessage}`,
        );
      }),
      { numRuns: 30 },
    );
    expect((await ctx.credentials.get(enrolled.id))!.name).toBe('Test phone');
    // A surrogate pair (a character outside the BMP) is a character like any other.
    const emoji = await deviceClient.post(api(paths.deviceRename), {
      id: enrolled.id,
      name: 'Phone 📱',
      proof: await device.proof(`rename:${enrolled.id}`),
    });
    expect(code(emoji)).toBe(1200);
    expect((await ctx.credentials.get(enrolled.id))!.name).toBe('Phone 📱');
    expect(code(await new Client(app).signInPassword('surrogate02', 'Harbor7Lights'))).toBe(1200);
  });
});

describe('production settings', () => {
  test('FRAME_ANCESTORS="*" (or any scheme-wide source) stops a production start, naming the setting', () => {
    for (const value of ['*', 'https:', 'https://*', 'https://portal.bank.example, *', 'http:']) {
      let error: unknown;
      try {
        loadConfig({ ...baseEnv, ...production, FRAME_ANCESTORS: value });
      } catch (e) {
        error = e;
      }
      expect(error, value).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(
        /^Invalid setting FRAME_ANCESTORS: cannot be "[^"]+" in production mode/,
      );
    }
    // Named embedding origins are fine, and development keeps its freedom.
    expect(
      loadConfig({ ...baseEnv, ...production, FRAME_ANCESTORS: 'https://www.bank.example' }).frameAncestors,
    ).toEqual(['https://www.bank.example']);
    expect(loadConfig({ ...baseEnv, FRAME_ANCESTORS: '*' }).frameAncestors).toEqual(['*']);
  });
});

describe.each(targets)('production and the published demo data ($name)', (target) => {
  const h = useHarness(target);

  test('production refuses to start while a demo account or demo staff member is in its database', async () => {
    await sql`truncate staff cascade`.execute(h.db);
    // A clean database starts.
    const clean = await h.start(production);
    await clean.app.close();

    // A demo account (any case of its username) stops the start, naming it.
    const demo = await createAccount(clean.ctx, { username: 'AlexDemo1', password: 'Cedar5Brook7' });
    await expect(h.start(production)).rejects.toThrow(
      /^production mode will not start while its database holds the demo accounts AlexDemo1 \(their passwords are published in demo\/\)/,
    );
    // Development mode seeds and uses them.
    await h.start();
    await h.db.deleteFrom('accounts').where('id', '=', demo.id).execute();

    // A demo staff member stops it too.
    const staff = new StaffStore(h.db, h.clock, clean.ctx.hasher, clean.ctx.config);
    await staff.add({ name: 'rita.rep', role: 'representative', password: 'Console7Rita' });
    await expect(h.start(production)).rejects.toThrow(/holds the demo staff rita\.rep/);
    await sql`truncate staff cascade`.execute(h.db);
    await h.start(production);
  });
});

// --- client log collector -------------------------------------------------------------------------

type Line = { msg: string; source?: string };
const clientLines = (logs: string[]) =>
  logs.map((l) => JSON.parse(l) as Line).filter((l) => l.source === 'client');

describe.each(targets)('client log collector redaction ($name)', (target) => {
  const h = useHarness(target);

  test('card numbers, national ids, base32 secrets and passwords of any case never reach the log', async () => {
    const { app, logs } = await h.start();
    const secrets = [
      '4111111111111111',
      '5500005555555559',
      '378282246310005',
      '078-05-1120',
      '219099999',
      'GZ4XQ3DBNRSXE5DJN5XGC3DUMVZXI4TF',
      'JBSWY3DPEHPK3PXP',
      'harbor7lights',
      'HARBOR7LIGHTS',
      'cedar5brook',
    ];
    for (const s of secrets) rememberSecret(s);
    const messages = [
      'card 4111 1111 1111 1111 declined',
      'card 5500-0055-5555-5559 on file',
      'pan=4111111111111111;',
      'amex 3782 822463 10005',
      'ssn 078-05-1120 entered',
      'national id 078 05 1120',
      'SSN: 219099999',
      'otpauth secret GZ4XQ3DBNRSXE5DJN5XGC3DUMVZXI4TF shown',
      'typed JBSW Y3DP EHPK 3PXP by hand',
      'seed JBSWY3DPEHPK3PXP=== copied',
      'seed gz4xq3dbnrsxe5djn5xgc3dumvzxi4tf lower',
      'login failed with harbor7lights',
      'caps lock: HARBOR7LIGHTS',
      'tried cedar5brook twice',
    ];
    const r = await new Client(app).post(api(paths.clientLogs), {
      logs: messages.map((message) => ({ level: 'warn', message })),
    });
    expect(r.statusCode).toBe(204);
    expect(clientLines(logs).map((l) => l.msg)).toEqual([
      'card [redacted] declined',
      'card [redacted] on file',
      'pan=[redacted];',
      'amex [redacted]',
      'ssn [redacted] entered',
      'national id [redacted]',
      'SSN: [redacted]',
      'otpauth secret [redacted] shown',
      'typed [redacted] by hand',
      'seed [redacted] copied',
      'seed [redacted] lower',
      'login failed with [redacted]',
      'caps lock: [redacted]',
      'tried [redacted] twice',
    ]);
    for (const secret of [...secrets, '4111 1111 1111 1111', '5500-0055-5555-5559', 'JBSW Y3DP']) {
      expect(
        logs.find((l) => l.includes(secret)),
        secret,
      ).toBeUndefined();
    }
  });
});

describe('cleanClientText', () => {
  test('any Luhn-valid card number, spaced or dashed, is redacted; digit runs that fail the check, dates and times stay', () => {
    for (const text of [
      'card 4111 1111 1111 1112 is not a card number',
      'order 1234567 shipped',
      'took 1732270000000 ms',
      'from 2026-11-22 to 2026-11-23',
      'call 555-123-4567',
      'PASSWORD_EXPIRED and COMPLETED_SUCCESSFUL',
      'unmapped status 1499 from sessionLogin; screen OtpCode',
      'Password field focused',
    ]) {
      expect(cleanClientText(text)).toBe(text);
    }
    const card = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 14, maxLength: 18 }).map((digits) => {
      // The check digit that makes the number Luhn-valid.
      for (let d = 0; d <= 9; d++) {
        const candidate = [...digits, d].join('');
        if (luhnValid(candidate)) return candidate;
      }
      throw new Error('unreachable');
    });
    fc.assert(
      fc.property(card, fc.constantFrom('', ' ', '-'), (number, separator) => {
        const written = separator ? number.replace(/(\d{4})(?=\d{3})/g, `$1${separator}`) : number;
        expect(cleanClientText(`paid with ${written} today`)).toBe('paid with [redacted] today');
      }),
    );
  });

  test('a lone surrogate becomes U+FFFD', () => {
    expect(cleanClientText('name \ud800 x')).toBe('name \ufffd x');
  });
});
