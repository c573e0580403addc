import { BlockList, isIP } from 'node:net';
import {
  type Callback,
  emptyBody,
  headers,
  paths,
  redirectPaths,
  Status,
  serverMessages,
  sessionExtendRequest,
  sessionUpdateRequest,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import type { Session } from '../db/schema.ts';
import { ApiError, failure, noLoginInProgress, outcome, sessionExpired } from '../lib/http.ts';
import { defineRoute } from '../lib/route.ts';
import { findAccountById } from '../services/accounts.ts';
import { allowedAuthenticators } from './factors.ts';
import { endBrowserFlow } from './recovery.ts';
import { clearSessionCookies, setSessionCookies } from './security.ts';
import { deviceTrusted, TRUSTED_DEVICE } from './trusted-device.ts';

/** The signed-in session of a request, or a 401 envelope. */
export async function requireSession(ctx: Context, request: FastifyRequest): Promise<Session> {
  const session = await ctx.sessions.load(request.cookies[ctx.cookieNames.session]);
  if (session?.state !== 'authenticated') {
    throw sessionExpired();
  }
  await ctx.sessions.touch(session);
  return session;
}

const contextHeader = (request: FastifyRequest): string | null => {
  const value = request.headers[headers.sessionCtx.toLowerCase()];
  return typeof value === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(value) ? value : null;
};

export async function sessionPlugin(app: FastifyInstance, ctx: Context) {
  const { db, sessions } = ctx;

  // PROHIBITED_NETWORKS: client addresses whose sign-in is refused as a prohibited location.
  // BlockList also matches an IPv4-mapped IPv6 address (::ffff:203.0.113.5) against IPv4 ranges.
  const prohibitedNetworks = new BlockList();
  for (const n of ctx.config.prohibitedNetworks) prohibitedNetworks.addSubnet(n.address, n.prefix, n.family);
  const prohibitedAddress = (ip: string): boolean => {
    const family = isIP(ip);
    return family !== 0 && prohibitedNetworks.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  };

  defineRoute(app, {
    method: 'POST',
    path: paths.sessionLogin,
    tag: 'session',
    summary: 'Continue the login transaction after the password: complete it, or say what is due.',
    body: emptyBody,
    handler: async ({ request, reply }) => {
      const session = await sessions.load(request.cookies[ctx.cookieNames.session]);
      if (!session) throw noLoginInProgress();
      const account = await findAccountById(db, session.account_id);
      if (!account) throw noLoginInProgress();
      if (account.status !== 'active') {
        await sessions.end(session.id, 'blocked');
        clearSessionCookies(ctx, request, reply);
        return failure(request, reply, new ApiError(200, Status.FORBIDDEN, serverMessages.securityBlocked));
      }
      if (account.prohibited || prohibitedAddress(request.ip)) {
        await sessions.end(session.id, 'prohibited');
        clearSessionCookies(ctx, request, reply);
        request.log.warn(
          { account: account.id, reason: account.prohibited ? 'account' : 'network' },
          'sign-in from a prohibited location',
        );
        return failure(
          request,
          reply,
          new ApiError(200, Status.FORBIDDEN, serverMessages.prohibitedLocation),
          { redirectPath: redirectPaths.prohibited },
        );
      }
      const data = { username: account.username, displayName: account.display_name };
      /** A second factor is due: the allowed authenticators (empty: the widget's default, the rep page). */
      const factorDue = async () =>
        outcome(request, reply, Status.AUTH_NOT_COMPLETED, serverMessages.authNotCompleted, {
          successData: {
            ...data,
            authenticated: false,
            authenticators: await allowedAuthenticators(ctx, account),
          },
        });
      // A device bound to the account skips the second factor (login journey only).
      let skippedOnTrustedDevice = false;

      if (session.state === 'password') {
        const callbacks: Callback[] = [];
        if (account.password_state !== 'ok') callbacks.push({ name: 'PASSWORD', type: 'EXPIRED' });
        if (account.require_username_update) callbacks.push({ name: 'PASSWORD', type: 'SETUP' });
        if (account.maintenance) callbacks.push({ name: 'IDENTITY', type: 'MAINTENANCE' });
        if (callbacks.length) {
          return outcome(request, reply, Status.CALLBACKS_REQUIRED, serverMessages.callbacksRequired, {
            successData: { ...data, authenticated: false },
            callbacks,
          });
        }
        if (account.second_factor) {
          skippedOnTrustedDevice = await deviceTrusted(ctx, request, account.id);
          if (!skippedOnTrustedDevice) {
            await db.updateTable('sessions').set({ state: 'factor' }).where('id', '=', session.id).execute();
            return factorDue();
          }
        }
      } else if (session.state === 'factor') {
        return factorDue();
      }

      // Complete: a new token for the authenticated session (the pre-login token dies).
      const context = contextHeader(request) ?? session.context;
      // Already authenticated (by a second factor): the context of this call is recorded too.
      if (session.state === 'authenticated' && context !== session.context) {
        await db.updateTable('sessions').set({ context }).where('id', '=', session.id).execute();
      }
      const promoted =
        session.state === 'authenticated'
          ? { token: request.cookies[ctx.cookieNames.session]!, session: { ...session, context } }
          : await sessions.promote(session, 'authenticated', context);
      // A simultaneous request on the same transaction promoted it first.
      if (!promoted) throw noLoginInProgress();
      const { token, session: signedIn } = promoted;
      if (skippedOnTrustedDevice) {
        await db
          .updateTable('sessions')
          .set({ factor_passed: TRUSTED_DEVICE })
          .where('id', '=', signedIn.id)
          .execute();
        request.log.info({ account: account.id }, 'second factor skipped: trusted device');
      }
      setSessionCookies(ctx, request, reply, token, signedIn.context);
      request.log.info({ account: account.id }, 'signed in');
      return outcome(request, reply, Status.SUCCESS, serverMessages.authenticated, {
        successData: {
          ...data,
          authenticated: true,
          ...(signedIn.context ? { context: signedIn.context } : {}),
        },
      });
    },
  });

  defineRoute(app, {
    method: 'GET',
    path: paths.sessionLogin,
    tag: 'session',
    summary: 'The signed-in session (used by the portal route guard); 401 when there is none.',
    handler: async ({ request, reply }) => {
      const session = await requireSession(ctx, request);
      const account = await findAccountById(db, session.account_id);
      if (!account) throw sessionExpired();
      return outcome(request, reply, Status.SUCCESS, serverMessages.authenticated, {
        successData: {
          authenticated: true,
          username: account.username,
          displayName: account.display_name,
          signedInAt: new Date(session.created_at).toISOString(),
          idleExpiresAt: new Date(session.idle_expires_at).toISOString(),
          absoluteExpiresAt: new Date(session.absolute_expires_at).toISOString(),
          ...(session.stepped_up_at ? { steppedUpAt: new Date(session.stepped_up_at).toISOString() } : {}),
        },
      });
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    path: paths.sessionLogout,
    tag: 'session',
    summary: 'Sign out: the session ends on the server and its cookies are cleared. 204.',
    body: emptyBody,
    handler: async ({ request, reply }) => {
      await sessions.endByToken(request.cookies[ctx.cookieNames.session], 'logout');
      clearSessionCookies(ctx, request, reply);
      await endBrowserFlow(ctx, request, reply);
      request.log.info('signed out');
      return reply.code(204).send();
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.sessionUpdate,
    tag: 'session',
    summary: 'Record activity and the host context on the signed-in session. 204.',
    body: sessionUpdateRequest,
    handler: async ({ request, reply, body }) => {
      const session = await requireSession(ctx, request);
      if (body?.context) {
        await db
          .updateTable('sessions')
          .set({ context: body.context })
          .where('id', '=', session.id)
          .execute();
      }
      return reply.code(204).send();
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.sessionExtend,
    tag: 'session',
    summary: 'Extend the idle limit of the signed-in session (never past the absolute limit). 204.',
    body: sessionExtendRequest,
    handler: async ({ request, reply }) => {
      const session = await requireSession(ctx, request);
      await sessions.touch({ ...session, last_seen_at: new Date(0) });
      return reply.code(204).send();
    },
  });
}
