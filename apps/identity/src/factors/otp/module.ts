import { otpCheck, otpSmsSend, otpVoiceSend, paths } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.ts';
import { defineRoute } from '../../lib/route.ts';
import type { FactorModule } from '../module.ts';
import { OtpFactor, otpOffer } from './otp-factor.ts';
import { security } from './security.ts';
import { settings } from './settings.ts';

/** POST and PUT for text and voice (e-mail shares its path with recovery: plugins/recovery.ts). */
function routes(app: FastifyInstance, ctx: Context) {
  const factor = new OtpFactor(ctx);

  defineRoute(app, {
    method: 'POST',
    path: paths.otpSms,
    tag: 'factors',
    summary:
      "Text a code to one of the account's phones: phone is its id from the OTP state call; message the template with $$CODE$$ once (≤ 400 characters).",
    body: otpSmsSend,
    auth: 'factor',
    handler: async ({ request, reply, body, auth: journey }) => {
      return factor.send('sms', request, reply, journey, { contactId: body.phone, template: body.message });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.otpVoice,
    tag: 'factors',
    summary: "Call one of the account's phones that takes calls and read the code twice, digit by digit.",
    body: otpVoiceSend,
    auth: 'factor',
    handler: async ({ request, reply, body, auth: journey }) => {
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
      // The guard reads the journey only where the check cannot run: 4401 first, or the body's 400.
      auth: 'factorCode',
      handler: async ({ request, reply, body }) => {
        return factor.checkCode(channel, request, reply, body);
      },
    });
  }
}

/** One-time codes by text, voice call and e-mail (widget spec §2 OTP screens). */
export const factor: FactorModule = {
  names: {
    key: 'otp',
    types: ['OTP-SMS', 'OTP-VOICE', 'OTP-EMAIL'],
    credentialKinds: ['phone', 'email'],
    widgetRoutes: ['/authenticator/otp', '/authenticator/otp/securitycode'],
    textGroup: 'otp',
    holds: ['sms', 'voice', 'email'],
    operations: ['otpSms', 'otpVoice', 'otpEmail'],
    auditEvents: [
      'security.contact-code-sent',
      'security.contact-added',
      'security.contact-failed',
      'security.contact-removed',
    ],
  },
  /** Its place in the list: the codes sent over the phone network and by e-mail, after the factors bound to a device (NIST SP 800-63B rev. 4 restricts them). */
  rank: 40,
  assurance: { level: 2, phishingResistant: false },
  settings,
  security,
  offer: (_ctx, _account, held) => otpOffer(held.contacts),
  routes,
  limits: (config) => ({
    FACTOR_MAX_SENDS: config.factor.maxSends,
    FACTOR_MAX_WRONG_TRIES: config.factor.maxWrongTries,
    FACTOR_LOCKOUT_MINUTES: config.factor.lockoutMs / 60_000,
    OTP_EXPIRY_MINUTES: config.otp.expiryMs / 60_000,
  }),
};
