import { Status } from '@gatehouse/contract';
import type { FastifyRequest } from 'fastify';
// The full metadata: the minimal one (the package's default) cannot tell a number's type.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Config } from '../config.ts';
import { ApiError } from '../lib/http.ts';
import type { RateDecision, RateLimiter } from '../lib/rate-limit.ts';

/**
 * What a text or a voice call may cost the bank (docs/decisions/033-abuse-limits.md): numbers of
 * refused types (premium-rate, shared-cost, ...) and ranges (PHONE_REFUSED_RANGES) never get one,
 * and every one is counted per destination number (an hour and a day), per country (a day) and in
 * all (a day), across accounts and instances, before it is sent. Every path that sends a text or
 * makes a call (the security page's "add a phone", the one-time code by text or voice) goes
 * through `PhoneLimits.reserve`.
 */

/**
 * Why a number gets no text or call, or null: a refused number type (libphonenumber-js) or a
 * refused prefix or region. `e164` is the full number (+ and digits).
 */
export function phoneRefusal(config: Config, e164: string): 'type' | 'range' | null {
  const parsed = parsePhoneNumberFromString(e164);
  const type = parsed?.getType();
  if (type && config.phone.refusedTypes.includes(type)) return 'type';
  const digits = `+${e164.replace(/\D/g, '')}`;
  const region = parsed?.country;
  for (const range of config.phone.refusedRanges) {
    if (range.startsWith('+') ? digits.startsWith(range) : range === region) return 'range';
  }
  return null;
}

/** The region a number belongs to (ISO 3166 code), or its calling code when the region is unknown. */
export function phoneRegion(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  return parsed?.country ?? `+${parsed?.countryCallingCode ?? 'unknown'}`;
}

/**
 * `new-number`: a code to a number being added on the security page (not yet proven); `factor`:
 * a code to the account's own phone; `recovery`: a recovery code to an established phone (anyone
 * with the username can ask for one, so it never spends the owner's sign-in texts); `notice`: a security notice to an established phone
 * (services/account-security.ts notifyOwner). A destination is counted per purpose, so a stranger
 * adding the owner's number to another account cannot spend the texts the owner signs in with, and
 * notices never spend them either.
 */
export type PhonePurpose = 'new-number' | 'factor' | 'notice' | 'recovery';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Rule = { key: string; max: number; windowMs: number; scope: string };

export class PhoneLimits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly config: Config,
  ) {}

  /** The limits one message counts against, the narrowest first. */
  rules(to: string, purpose: PhonePurpose, accountId: string): Rule[] {
    const { phone } = this.config;
    const region = phoneRegion(to);
    const digits = to.replace(/\D/g, '');
    return [
      ...(purpose === 'new-number'
        ? [
            // An account's new numbers a day: adding numbers is not a way to text the world.
            {
              key: `phone:new-account-day:${accountId}`,
              max: phone.newNumbersDaily,
              windowMs: DAY,
              scope: 'account',
            },
          ]
        : []),
      {
        key: `phone:dest-hour:${purpose}:${digits}`,
        max: phone.destinationHourly,
        windowMs: HOUR,
        scope: 'destination',
      },
      {
        key: `phone:dest-day:${purpose}:${digits}`,
        max: phone.destinationDaily,
        windowMs: DAY,
        scope: 'destination',
      },
      {
        key: `phone:country-day:${region}`,
        max: phone.countryDaily.get(region) ?? phone.countryDailyMax,
        windowMs: DAY,
        scope: 'country',
      },
      { key: 'phone:day', max: phone.dailyMax, windowMs: DAY, scope: 'all' },
    ];
  }

  /**
   * Counts one text or call to `to` against every limit, each a hit of the shared fixed-window
   * counter (lib/rate-limit.ts, rows in rate_limits): a hit over a limit gives back the hits it
   * took from the limits before it, so a refused message costs no other number, country or day its place, and of any burst at
   * most each limit's number pass. Throws the 429 envelope (4429, Retry-After, 'phoneSendLimited')
   * when a limit is reached.
   */
  async reserve(
    request: FastifyRequest,
    input: { to: string; purpose: PhonePurpose; accountId: string },
  ): Promise<void> {
    // Every limit in one statement, each counted only while the ones before it allowed (issue 25);
    // a refusal gives back what was taken, the refused limit's own hit included.
    const rules = this.rules(input.to, input.purpose, input.accountId);
    await this.settle(request, input, rules, await this.limiter.hitInTurn(rules));
  }

  /**
   * What `reserve` does with its decisions, for hits counted in a statement of the caller's (the
   * one that issues a code: lib/otp.ts `countAndIssue`): a refusal gives back what was taken and
   * throws the 429 envelope.
   */
  async settle(
    request: FastifyRequest,
    input: { purpose: PhonePurpose; accountId: string },
    rules: readonly Rule[],
    decisions: readonly RateDecision[],
  ): Promise<void> {
    const refusedAt = decisions.findIndex((d) => !d.allowed);
    const decision = decisions[refusedAt];
    if (decision && !decision.allowed) {
      const rule = rules[refusedAt]!;
      for (const [i, taken] of decisions.slice(0, refusedAt + 1).entries()) {
        await this.limiter.giveBack(rules[i]!.key, taken.windowStart!);
      }
      const log = { limit: rule.scope, purpose: input.purpose, account: input.accountId };
      // A country's or the whole service's ceiling is an alert for the monitoring: texts are
      // being pumped (or the ceiling is too low for the day's traffic).
      if (rule.scope === 'country' || rule.scope === 'all') {
        request.log.error(
          { ...log, alert: 'phone-ceiling', key: rule.key },
          'texts and calls: ceiling reached',
        );
      } else request.log.warn(log, 'texts and calls: limit reached');
      throw ApiError.of(429, Status.RATE_LIMITED, 'phoneSendLimited', [], {
        'Retry-After': String(decision.retryAfterSeconds),
      });
    }
  }
}
