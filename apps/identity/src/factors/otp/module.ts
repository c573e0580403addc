import { otpCheck, otpSmsSend, otpVoiceSend, paths, Status } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.ts';
import { defineRoute } from '../../lib/route.ts';
import { createPhoneSender } from '../../services/sms.ts';
import type { FactorModule } from '../registry.ts';
import { OtpFactor, otpOffer } from './otp-factor.ts';

const sendCodes = {
  [Status.SUCCESS]: "Sent: 'We sent the code to (XXX) XXX-0143. It will expire after 30 minutes.'",
  [Status.FORBIDDEN]:
    'The contact id is not one of this account, not usable yet (CONTACT_WAIT_DAYS), or not of this channel (voice: a phone that takes calls); or the channel is not allowed. Nothing is sent',
  [Status.LIMIT_REACHED]:
    'FACTOR_MAX_SENDS sends without a correct code, or FACTOR_MAX_WRONG_TRIES wrong codes, on this channel within FACTOR_LOCKOUT_MINUTES; nothing is sent (the widget goes to the representative page)',
  [Status.BAD_REQUEST]: 'Body not valid (HTTP 400)',
  [Status.UNAUTHENTICATED]: 'No login transaction with a factor due and no signed-in session (HTTP 401)',
  [Status.UNAVAILABLE]: 'Delivery failed (HTTP 503); the code was withdrawn',
};

const checkCodes = {
  [Status.SUCCESS]:
    'Right code: the session is authenticated under a new ET token (login), or proved the factor again (step-up: steppedUpAt recorded). No redirectPath; the login journey continues with session login. bindDevice true (login only) trusts the device',
  [Status.INCORRECT_CODE]:
    "'Security code not recognized. Try again.' (wrong, expired, replaced or already used)",
  [Status.LIMIT_REACHED]:
    'FACTOR_MAX_WRONG_TRIES wrong codes on this channel (counted per account across resends and restarts): the login transaction ends (step-up: the session stays, the channel is refused)',
  [Status.UNAUTHENTICATED]: 'No login transaction with a factor due and no signed-in session (HTTP 401)',
};

/** POST and PUT for text and voice (e-mail shares its path with recovery: plugins/recovery.ts). */
function routes(app: FastifyInstance, ctx: Context) {
  const factor = new OtpFactor(ctx, createPhoneSender(ctx.config, ctx.db, ctx.clock));

  defineRoute(app, {
    method: 'POST',
    path: paths.otpSms,
    tag: 'factors',
    summary:
      "Text a code to one of the account's phones: phone is its id from the OTP state call; message the template with $$CODE$$ once (≤ 400 characters).",
    body: otpSmsSend,
    codes: {
      ...sendCodes,
      [Status.CARRIER_OUTAGE]:
        "SMS_OUTAGE is set: 'There may be a problem texting a code to your number at this time', ruleData { carrierOutage: true }; the code is still sent",
    },
    handler: async ({ request, reply, body }) => {
      const journey = await ctx.engine.require(request);
      return factor.send('sms', request, reply, journey, { contactId: body.phone, template: body.message });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.otpVoice,
    tag: 'factors',
    summary: "Call one of the account's phones that takes calls and read the code twice, digit by digit.",
    body: otpVoiceSend,
    codes: sendCodes,
    handler: async ({ request, reply, body }) => {
      const journey = await ctx.engine.require(request);
      return factor.send('voice', request, reply, journey, { contactId: body.phone });
    },
  });

  for (const [channel, path] of [
    ['sms', paths.otpSms],
    ['voice', paths.otpVoice],
  ] as const) {
    defineRoute(app, {
      method: 'PUT',
      path,
      tag: 'factors',
      summary: `Check the code sent by ${channel === 'sms' ? 'text' : 'voice call'}.`,
      body: otpCheck,
      codes: checkCodes,
      handler: async ({ request, reply, body }) => {
        const journey = await ctx.engine.require(request);
        return factor.check(channel, request, reply, journey, body);
      },
    });
  }
}

/** One-time codes by text, voice call and e-mail (widget spec §2 OTP screens). */
export const otpFactor: FactorModule = {
  name: 'one-time code',
  types: ['OTP-SMS', 'OTP-VOICE', 'OTP-EMAIL'],
  offer: (_ctx, _account, contacts) => otpOffer(contacts),
  routes,
  limits: (config) => ({
    FACTOR_MAX_SENDS: config.factor.maxSends,
    FACTOR_MAX_WRONG_TRIES: config.factor.maxWrongTries,
    FACTOR_LOCKOUT_MINUTES: config.factor.lockoutMs / 60_000,
    OTP_EXPIRY_MINUTES: config.otp.expiryMs / 60_000,
  }),
};
