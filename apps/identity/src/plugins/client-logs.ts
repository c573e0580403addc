import { API_BASE, clientLogsRequest, cookies, limits, paths, Status } from '@gatehouse/contract';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { accountContacts } from '../credentials/contacts.ts';
import { loadFlow } from '../journeys/recovery.ts';
import { answer } from '../lib/http.ts';
import { clientKey } from '../lib/rate-limit.ts';
import { defineRoute } from '../lib/route.ts';
import { deviceKey } from '../services/cookies.ts';
import { browserSubject } from '../services/session-guard.ts';

const REDACTED = '[redacted]';
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
const cookieNames = [
  ...new Set<string>([
    cookies.session,
    cookies.sessionContext,
    cookies.csrf,
    cookies.device,
    ...cookies.portalLogout,
  ]),
];
const cookiePair = new RegExp(`\\b(${cookieNames.map(escapeRegExp).join('|')})=[^;\\s&,"']*`, 'g');

/** The Luhn check (ISO/IEC 7812): what a payment card number passes and most digit runs do not. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * A payment card number that passes the Luhn check: 13-19 digits in groups of 3-6 separated by
 * spaces or dashes, or 14-19 written together (a 13-digit run is as likely a time in
 * milliseconds). A run that fails the check (an order number) stays.
 */
const cardCandidate = /(?<![\d-])(?:\d{14,19}|\d{3,6}(?:[ -]\d{3,6}){2,4})(?![\d-])/g;
/** A national id in the shape of a US Social Security number: 123-45-6789 or 123 45 6789. */
const ssnShape = /(?<![\d-])\d{3}([ -])\d{2}\1\d{4}(?![\d-])/g;
/** Nine digits named as a national id (`SSN 123456789`, `tax id: 123456789`). */
const namedNationalId = /\b(ssn|social security(?: number)?|national id|tax id|tin)(\W{0,3})\d{9}(?!\d)/gi;
/**
 * An RFC 4648 base32 secret (an authenticator app's or a token's seed): 16 or more characters of
 * one case from A-Z and 2-7 with at least one digit, or upper case in groups of four as apps show
 * it (`JBSW Y3DP EHPK 3PXP`), with any `=` padding.
 */
const base32Secret =
  /(?<![A-Za-z\d])(?:(?=[A-Z2-7 ]*[2-7])[A-Z2-7]{4}(?: [A-Z2-7]{4}){3,}|(?=[A-Z2-7]*[2-7])[A-Z2-7]{16,}|(?=[a-z2-7]*[2-7])[a-z2-7]{16,})=*(?![A-Za-z\d])/g;

/**
 * What a client may not put in the server log, in the order it is removed: the values of this
 * request's own cookies wherever they appear, and what the server knows of its session's account
 * (username, e-mail addresses, phone numbers; `known`), in any case; a Cookie, Set-Cookie or Authorization header written
 * out (the rest of the line); `NAME=value` of our cookies; password, secret and token pairs
 * (`password=…`, `"password":"…"`, `pwd: …`); payment card numbers (Luhn-checked, with or without
 * spaces and dashes); national ids in the shape of a Social Security number; base32 secrets;
 * anything that looks like a 6-digit code; a word shaped like a password (8-20 letters and digits
 * with both, in any case). Control characters become spaces, a lone surrogate becomes U+FFFD, and
 * the text is cut to limits.clientLogMessageMax characters.
 */
export function cleanClientText(text: string, request?: FastifyRequest, known: string[] = []): string {
  let out = text.replace(/\p{Cc}+/gu, ' ').replace(/[\uD800-\uDFFF]/gu, '\uFFFD');
  for (const value of [...Object.values(request?.cookies ?? {}), ...known]) {
    if (value && value.length >= 6) out = out.replace(new RegExp(escapeRegExp(value), 'gi'), REDACTED);
  }
  out = out.replace(/\b(set-cookie|cookie|authorization)(["']?\s*[:=]\s*).*$/gi, `$1$2${REDACTED}`);
  out = out.replace(cookiePair, `$1=${REDACTED}`);
  out = out.replace(
    /(["']?)\b(\w*(?:pass(?:word|code|wd)?|pwd|secret|token)\w*)\1(\s*[=:]\s*)(?:(["'])[^"']*\4|[^\s&,;"']+)/gi,
    (_whole, q: string, name: string, sep: string, vq: string | undefined) =>
      `${q}${name}${q}${sep}${vq ?? ''}${REDACTED}${vq ?? ''}`,
  );
  out = out.replace(cardCandidate, (run) => {
    const digits = run.replace(/\D/g, '');
    return digits.length >= 13 && digits.length <= 19 && luhnValid(digits) ? REDACTED : run;
  });
  out = out.replace(ssnShape, REDACTED);
  out = out.replace(namedNationalId, `$1$2${REDACTED}`);
  out = out.replace(base32Secret, REDACTED);
  out = out.replace(/(?<!\d)\d{6}(?!\d)/g, REDACTED);
  // A code written with separators (`12 34 56`, `123-456`, `"1","2",…`) too.
  out = out.replace(
    /(?<![\d\-:.])(?:\d{3}[\s-]\d{3}|\d{2}\s\d{2}\s\d{2}|\d(?:["',\s[\]]{1,4}\d){5})(?![\d\-:.])/g,
    REDACTED,
  );
  // A word shaped like a password (8-20 letters and digits, with at least one of each, in any case:
  // `Harbor7Lights`, `harbor7lights` typed with the wrong case, `HARBOR7LIGHTS` under caps lock)
  // may be one written as prose: it goes too.
  out = out.replace(
    /(?<![A-Za-z\d])(?=[A-Za-z\d]*[A-Za-z])(?=[A-Za-z\d]*\d)[A-Za-z\d]{8,20}(?![A-Za-z\d])/g,
    REDACTED,
  );
  return out.length > limits.clientLogMessageMax ? `${out.slice(0, limits.clientLogMessageMax)}…` : out;
}

/**
 * Client log collector (widget spec §7, POST /user/cclogger/logs): the widget's log entries go to
 * the server log at their level, with the request id, cleaned of anything secret. 204.
 */
export async function clientLogsPlugin(app: FastifyInstance, ctx: Context) {
  const { config, limiter } = ctx;
  const bodyLimit = Math.min(config.bodyLimit, limits.clientLogBodyBytes);
  const url = API_BASE + paths.clientLogs;

  // This route's own body limit (the service's may be larger), and the 400 that names it.
  app.addHook('onRoute', (route) => {
    if (route.url === url) route.bodyLimit = bodyLimit;
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return answer(request, reply, Status.BAD_REQUEST, { message: 'bodyTooLarge', params: [bodyLimit] });
    }
    throw error;
  });

  /**
   * What the server knows that this browser may write: the usernames saved on its device, and its
   * session's account (username, e-mail addresses, phone numbers).
   */
  async function sessionSecrets(request: FastifyRequest): Promise<string[]> {
    const device = deviceKey(ctx, request);
    const saved = device
      ? await ctx.db
          .selectFrom('remembered_usernames as r')
          .innerJoin('accounts as a', 'a.id', 'r.account_id')
          .select('a.username')
          .where('r.device_key', '=', device)
          .execute()
      : [];
    // The account a recovery flow of this browser identified.
    const flow = await loadFlow(ctx, request);
    const identified = flow?.account_id
      ? await ctx.db.selectFrom('accounts').select('username').where('id', '=', flow.account_id).execute()
      : [];
    saved.push(...identified);
    const session = await browserSubject(ctx, request);
    if (!session) return saved.map((r) => r.username);
    const account = await ctx.db
      .selectFrom('accounts')
      .select(['username', 'email'])
      .where('id', '=', session.accountId)
      .executeTakeFirst();
    const contacts = await accountContacts(ctx.db, session.accountId);
    return [
      ...saved.map((r) => r.username),
      account?.username,
      account?.email,
      ...contacts.map((c) => c.value),
    ].filter((v): v is string => !!v);
  }

  defineRoute(app, {
    method: 'POST',
    path: paths.clientLogs,
    tag: 'operations',
    summary: `Client log entries (at most ${limits.clientLogEntriesMax}, body at most ${limits.clientLogBodyBytes} bytes) written to the server log. 204.`,
    body: clientLogsRequest,
    handler: async ({ request, reply, body }) => {
      await limiter.enforce(request, [
        [`clog:client:${clientKey(request.ip)}`, { max: config.clientLogRateMax, windowMs: 60_000 }],
      ]);
      const known = await sessionSecrets(request);
      for (const entry of body.logs) {
        const fields: Record<string, string> = { source: 'client' };
        if (entry.timestamp) fields.clientTime = cleanClientText(entry.timestamp, request, known);
        request.log[entry.level](fields, cleanClientText(entry.message, request, known));
      }
      return answer(request, reply, Status.SUCCESS);
    },
  });
}
