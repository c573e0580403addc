import { authenticatorsData, otpStateData, otpStateQuery, paths, Status } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { contactView } from '../credentials/contacts.ts';
import { heldCredentials } from '../factors/engine.ts';
import { allowedAuthenticators, factors, recentOnlyAuthenticators } from '../factors/registry.ts';
import { answer } from '../lib/http.ts';
import { defineRoute } from '../lib/route.ts';

/**
 * The second factor's common ground (widget spec §2 "Entry to the authenticator area", "OTP contact
 * screen", §3 Contact, §5): the authenticators an account may use, its contacts as the OTP screens
 * show them, and the routes of every factor in the registry (factors/registry.ts).
 */

/** GET authenticators and GET otp/state, and every factor module's routes. */
export async function factorsPlugin(app: FastifyInstance, ctx: Context) {
  for (const module of factors().modules) await module.routes(app, ctx);

  defineRoute(app, {
    method: 'GET',
    path: paths.authenticators,
    tag: 'factors',
    summary:
      'The second factors the account may use (login transaction with a factor due, or step-up of a signed-in session).',
    successData: authenticatorsData,
    auth: 'factor',
    handler: async ({ request, reply, auth }) => {
      const { account, kind } = auth;
      const held = await heldCredentials(ctx, auth);
      const authenticators = await allowedAuthenticators(ctx, account, held, kind);
      // A step-up says which methods were left out because they were added recently (decision 030).
      const recent = kind === 'stepup' ? await recentOnlyAuthenticators(ctx, account, held) : [];
      return answer(request, reply, Status.SUCCESS, {
        message: 'success',
        successData: { authenticators, ...(recent.length ? { recent } : {}) },
      });
    },
  });

  defineRoute(app, {
    method: 'GET',
    path: paths.otpState,
    tag: 'factors',
    summary:
      'The phones and e-mail addresses a code can go to: masked labels, opaque ids as values, enable false while a new contact waits.',
    query: otpStateQuery,
    successData: otpStateData,
    auth: 'factor',
    handler: async ({ request, reply, auth }) => {
      const { contacts } = await heldCredentials(ctx, auth);
      const view = (kind: string) => contacts.filter((c) => c.kind === kind).map((c) => contactView(ctx, c));
      return answer(request, reply, Status.SUCCESS, {
        message: 'success',
        successData: { phone: view('phone'), email: view('email') },
      });
    },
  });
}
