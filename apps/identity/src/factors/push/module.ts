import {
  ErrorType,
  limits,
  type PushContent,
  paths,
  pushInitData,
  pushInitRequest,
  pushStatusData,
  pushStatusRequest,
  Status,
  serverMessages,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Context } from '../../context.ts';
import type { HeldCredentials } from '../../credentials/held.ts';
import type { Credential } from '../../credentials/store.ts';
import type { PushTransaction } from '../../db/schema.ts';
import { sha256 } from '../../lib/crypto.ts';
import { ApiError, answer, sessionExpired } from '../../lib/http.ts';
import { LocalRateLimiter } from '../../lib/rate-limit.ts';
import { defineRoute } from '../../lib/route.ts';
import { UUID } from '../../lib/validate.ts';
import { pushTarget, useOfJourney } from '../../security/credential-policy.ts';
import { describeUserAgent, unknownBrowser, unknownOs } from '../../security/user-agent.ts';
import { clearSessionCookies } from '../../services/cookies.ts';
import type { FactorModule } from '../module.ts';
import { parsePublicPart, thumbprint } from './device-keys.ts';
import { demoDeviceRoutes, deviceRoutes } from './device-routes.ts';
import { createPushGateway, DeviceHub, PushDeliveryError, type PushGateway } from './gateway.ts';
import { security } from './security.ts';
import { settings } from './settings.ts';
import { PushStore } from './store.ts';

/**
 * Push approval (widget spec §2 push screens, §4 "Push states", §7; docs/decisions/022): the
 * widget starts a push for its journey (a login journey with a factor due, or a session's step-up),
 * the account's device reads and answers it with a signature of its own key (device-routes.ts), and
 * the widget's poll completes the journey through the engine once the answer is an approval.
 */

/**
 * The widget's secureTransactionContent (widget spec §3: a JSON text of deviceInfo.browserName and
 * osName, time, host and journey): still the spec's request, so it is checked for that shape, but
 * none of it is stored or shown (decision 032). Whoever calls the API writes it, and a card that
 * showed it read "Identity check: tap Yes to BLOCK a $4,800 transfer" on a sign-in.
 */
const transactionContent = z.object({
  deviceInfo: z.object({ browserName: z.string().min(1), osName: z.string().min(1) }),
  time: z.string().min(1),
  host: z.string().min(1),
  journey: z.string().min(1),
});
const FIELD_MAX = 100;

/** What a push says it is (the widget's own texts for the two journeys, decision 022). */
const pushDescription = { login: 'Sign-in request', stepup: 'Identity check' } as const;

function checkContent(text: string): void {
  try {
    if (transactionContent.safeParse(JSON.parse(text)).success) return;
  } catch {}
  throw ApiError.of(400, Status.BAD_REQUEST, 'badRequest', [
    'secureTransactionContent: must be JSON with deviceInfo.browserName, deviceInfo.osName, time, host and journey',
  ]);
}

/**
 * The browser and system the device shows: parsed by bowser from the User-Agent of the send itself
 * (names only; empty when the agent names none, which the device shows as unknown), never the
 * widget's deviceInfo.
 */
function observedAgent(request: FastifyRequest): Pick<PushContent, 'browserName' | 'osName'> {
  const agent = describeUserAgent(request.headers['user-agent']);
  return {
    browserName: agent.browser === unknownBrowser ? '' : agent.browser.slice(0, FIELD_MAX),
    osName: agent.os === unknownOs ? '' : agent.os.slice(0, FIELD_MAX),
  };
}

/**
 * The host the send actually came from, as the device shows it (decision 022, "What the device
 * shows"): the browser's Origin (which the CSRF check has already held to the allowed origins or
 * this host), else the Host the request was addressed to; an internationalised name in its
 * punycode form, so a look-alike name shows as what it is. Never the widget's `host`, which the
 * page (or whoever calls the API) writes.
 */
function observedHost(request: FastifyRequest): string {
  const origin = request.headers.origin;
  for (const candidate of [origin, request.headers.host ? `http://${request.headers.host}` : undefined]) {
    if (!candidate) continue;
    try {
      const host = new URL(candidate).host;
      if (host) return host.slice(0, FIELD_MAX);
    } catch {}
  }
  return 'unknown';
}

/** The device key (thumbprint) of a push credential; stored in its data the first time it is read. */
export async function deviceKeyOf(ctx: Context, credential: Credential): Promise<string | undefined> {
  const stored = credential.data.thumbprint;
  if (typeof stored === 'string') return stored;
  const key = parsePublicPart(credential.publicPart);
  if (!key) return undefined;
  const print = await thumbprint(key);
  await ctx.credentials.updateData(credential.id, { thumbprint: print });
  return print;
}

/**
 * The account's push device for a journey: the newest established registration, a recent one only
 * at sign-in while none is established (security/credential-policy.ts pushTarget).
 */
async function pushDevice(
  ctx: Context,
  accountId: string,
  journey: 'login' | 'stepup',
  held?: HeldCredentials,
) {
  const devices = held ? held.ofKind('push') : await ctx.credentials.list(accountId, 'push');
  for (const credential of pushTarget(ctx, devices, useOfJourney(journey))) {
    const key = await deviceKeyOf(ctx, credential);
    if (key) return { credential, key };
  }
  return undefined;
}

/**
 * Who polls: the browser's login journey (by its cookie, whatever its state now) or its signed-in
 * session, with the journeys whose pushes it may read (the session's step-ups and the journeys that
 * proved it). Null: neither.
 */
async function caller(ctx: Context, request: FastifyRequest) {
  const token = request.cookies[ctx.cookieNames.session];
  if (!token || token.length > 100) return null;
  const login = await ctx.db
    .selectFrom('journeys')
    .select('id')
    .where('token_hash', '=', sha256(token))
    .where('kind', '=', 'login')
    .executeTakeFirst();
  if (login) return { login: true, key: `journey:${login.id}`, journeyIds: new Set([login.id]) };
  const live = await ctx.sessions.load(token);
  // A session a step-up rotated a moment ago (a poll racing the one that completed it) still reads
  // its step-up's push, and nothing else.
  const session =
    live ??
    (await ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', sha256(token))
      .where('end_reason', '=', 'rotated')
      .executeTakeFirst());
  if (!session) return null;
  const stepUps = await ctx.db
    .selectFrom('journeys')
    .select('id')
    .where('session_id', '=', session.id)
    .where('kind', '=', 'stepup')
    .execute();
  const proved = await ctx.db
    .selectFrom('session_factors')
    .select('journey_id')
    .where('session_id', '=', session.id)
    .where('journey_id', 'is not', null)
    .execute();
  const ids = new Set<string>([...stepUps.map((r) => r.id), ...proved.map((r) => r.journey_id as string)]);
  return { login: false, key: `session:${session.id}`, journeyIds: ids };
}

function routes(app: FastifyInstance, ctx: Context) {
  const store = new PushStore(ctx.db, ctx.clock);
  const pollLimiter = new LocalRateLimiter(ctx.clock);
  const hub = new DeviceHub();
  const gateway: PushGateway | undefined = createPushGateway(ctx.config, hub);
  pushState.set(ctx, { gateway });

  defineRoute(app, {
    method: 'POST',
    path: paths.pushAuthentication,
    tag: 'factors',
    summary:
      "Send a push to the account's device (at most 3 per journey); successData: id to poll, expiresAt, and number when number matching is on.",
    body: pushInitRequest,
    successData: pushInitData,
    auth: 'factor',
    handler: async ({ request, reply, body, auth: fj }) => {
      // Checked as the spec's request, never shown: every word the device shows is the server's
      // (decision 032), read below from the send itself and the journey row.
      checkContent(body.secureTransactionContent);
      if (fj.account.status !== 'active') {
        return answer(request, reply, Status.LIMIT_REACHED, { message: 'pushLimitReached' });
      }
      if (!gateway) return answer(request, reply, Status.FORBIDDEN, { message: 'factorNotAllowed' });
      const device = await pushDevice(ctx, fj.account.id, fj.kind);
      if (!device) return answer(request, reply, Status.FORBIDDEN, { message: 'pushNoDevice' });
      const push = await store.create({
        journeyId: fj.journey.id,
        accountId: fj.account.id,
        credentialId: device.credential.id,
        // The notice's text (the webhook's notification, the device's list) is the server's, by the
        // journey's kind: the widget's transactionDescription is the caller's and could read
        // "Security alert: tap Yes to block a fraudulent sign-in" (decision 022).
        description: pushDescription[fj.kind],
        content: {
          ...observedAgent(request),
          host: observedHost(request),
          journey: fj.kind === 'stepup' ? 'STEPUP' : 'LOGIN',
        },
        expiryMs: ctx.config.push.expiryMs,
        numberMatching: ctx.config.push.numberMatching,
        accountLimit: ctx.config.push.account,
      });
      if (push === 'journey') {
        request.log.warn({ account: fj.account.id, journey: fj.kind }, 'push: send limit reached');
        return answer(request, reply, Status.LIMIT_REACHED, { message: 'pushLimitReached' });
      }
      if (push === 'account') {
        // Push fatigue: someone with the password starting journey after journey (decision 022).
        request.log.warn({ account: fj.account.id, journey: fj.kind }, 'push: account limit reached');
        await ctx.audit.record(request, {
          event: 'push-limited',
          outcome: 'failure',
          accountId: fj.account.id,
          journeyId: fj.journey.id,
          detail: { journey: fj.kind },
        });
        return answer(request, reply, Status.LIMIT_REACHED, { message: 'pushLimitReached' });
      }
      try {
        await gateway.deliver({
          transactionId: push.id,
          deviceKey: device.key,
          account: fj.account.username,
          description: push.description,
        });
      } catch (error) {
        await store.withdraw(push.id);
        request.log.error(
          { err: error instanceof PushDeliveryError ? error.message : error, account: fj.account.id },
          'push: delivery failed',
        );
        throw new ApiError(503, Status.UNAVAILABLE, serverMessages.unavailable, ErrorType.SYSTEM);
      }
      await ctx.audit.record(request, {
        event: 'push-sent',
        outcome: 'success',
        accountId: fj.account.id,
        journeyId: fj.journey.id,
        detail: { journey: fj.kind, device: device.credential.name, numberMatching: push.number !== null },
      });
      request.log.info({ account: fj.account.id, journey: fj.kind, push: push.id }, 'push: sent');
      return answer(request, reply, Status.SUCCESS, {
        message: 'pushSent',
        successData: {
          id: push.id,
          ...(push.number ? { number: push.number } : {}),
          expiresAt: new Date(push.expires_at).toISOString(),
        },
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.pushStatus,
    tag: 'factors',
    summary:
      "Poll a push of this browser's journey: PENDING, EXPIRED_PENDING, DECLINED, FRAUD, COMPLETED_FAILURE (wrong number), or COMPLETED_SUCCESSFUL once the approval completed the journey (bindDevice: trust the device, login only).",
    body: pushStatusRequest,
    successData: pushStatusData,
    handler: async ({ request, reply, body }) => {
      const id = body.id.trim().toLowerCase();
      const token = request.cookies[ctx.cookieNames.session];
      // The common poll, a login's own push, is one read; a step-up, a foreign or an unknown id
      // goes the long way.
      const own =
        UUID.test(id) && token && token.length <= 100
          ? await store.ofLoginCookie(id, sha256(token))
          : undefined;
      const who = own ? { login: true, key: `journey:${own.journey_id}` } : await caller(ctx, request);
      if (!who) throw sessionExpired();
      pollLimiter.enforce(request, [[`push-status:${who.key}`, ctx.config.push.status]]);
      const push = own ?? (UUID.test(id) ? await store.get(id) : undefined);
      if (!push || !(own || ('journeyIds' in who && who.journeyIds.has(push.journey_id)))) {
        return answer(request, reply, Status.UNKNOWN_TRANSACTION, { message: 'pushUnknown' });
      }
      const status = async (value: string) =>
        answer(request, reply, Status.SUCCESS, { message: 'success', successData: { status: value } });
      if (own && own.journey_state === 'ended' && (push.status === 'EXPIRED' || push.status === 'PENDING')) {
        // The sign-in ended under it (the account locked, or its sessions were ended): its push was
        // withdrawn, and nothing here may be sent again. The widget's page says the sign-in ended.
        clearSessionCookies(ctx, request, reply);
        throw sessionExpired();
      }

      switch (push.status) {
        case 'PENDING': {
          if (new Date(push.expires_at).getTime() > ctx.clock.now().getTime()) return status('PENDING');
          if (await store.expire(push.id)) await expired(ctx, request, push, hub);
          return status('EXPIRED_PENDING');
        }
        case 'APPROVED':
          return status(await complete(ctx, request, reply, store, push, body.bindDevice));
        case 'FRAUD':
          if (who.login) {
            await ctx.journeys.transition({ id: push.journey_id }, ['factor'], 'failed');
            clearSessionCookies(ctx, request, reply);
          }
          return status('FRAUD');
        default:
          return status(store.statusOf(push, 'widget'));
      }
    },
  });

  deviceRoutes(app, ctx, store, hub);
  if (ctx.config.devCompanions) demoDeviceRoutes(app, ctx);

  // Open device streams end with the app (server-sent events never end on their own).
  app.addHook('preClose', async () => {
    hub.closeAll();
  });
}

/** Per app: the gateway, so the offer knows whether push can be delivered. */
const pushState = new WeakMap<Context, { gateway: PushGateway | undefined }>();

async function expired(ctx: Context, request: FastifyRequest, push: PushTransaction, hub: DeviceHub) {
  await ctx.audit.record(request, {
    event: 'push-expired',
    outcome: 'failure',
    accountId: push.account_id,
    journeyId: push.journey_id,
  });
  const credential = await ctx.credentials.get(push.credential_id);
  const key = credential?.data.thumbprint;
  if (typeof key === 'string') hub.notify(key);
}

/**
 * An approved push completes its journey once (the engine's conditional step): the poll that does it
 * gets the session's cookies; a concurrent or later poll of the same browser finds the journey
 * completed and answers COMPLETED_SUCCESSFUL without creating anything. A journey that ended or ran
 * out meanwhile answers EXPIRED_FAILURE.
 */
async function complete(
  ctx: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  store: PushStore,
  push: PushTransaction,
  bindDevice: boolean | undefined,
): Promise<string> {
  if (push.completed_at) return 'COMPLETED_SUCCESSFUL';
  const fj = await ctx.engine.resolve(request);
  if (fj && fj.journey.id === push.journey_id && fj.account.status === 'active') {
    const done = await ctx.engine.complete(request, reply, fj, 'PUSH', { bindDevice });
    if (done) {
      await store.markCompleted(push.id);
      request.log.info(
        { account: fj.account.id, journey: fj.kind, trusted: !!done.trustedUntil },
        'push: approved, journey completed',
      );
      return 'COMPLETED_SUCCESSFUL';
    }
  }
  const journey = await ctx.db
    .selectFrom('journeys')
    .select('state')
    .where('id', '=', push.journey_id)
    .executeTakeFirst();
  return journey?.state === 'completed' ? 'COMPLETED_SUCCESSFUL' : 'EXPIRED_FAILURE';
}

export const factor: FactorModule = {
  names: {
    key: 'push',
    types: ['PUSH'],
    credentialKinds: ['push'],
    widgetRoutes: ['/authenticator/push', '/authenticator/pushdenied'],
    textGroup: 'push',
    operations: ['pushAuthentication', 'pushStatus'],
    auditEvents: [
      'push-sent',
      'push-limited',
      'push-approved',
      'push-declined',
      'push-wrong-number',
      'push-fraud',
      'push-expired',
      'device-registered',
      'device-renamed',
      'device-removed',
    ],
  },
  /** Its place in the list: first: a signed push to a device the customer holds (decision 022). */
  rank: 10,
  assurance: { level: 2, phishingResistant: false },
  settings,
  security,
  offer: async (ctx, account, held, journey = 'login') => {
    if (!pushState.get(ctx)?.gateway) return [];
    return (await pushDevice(ctx, account.id, journey, held)) ? [{ type: 'PUSH' }] : [];
  },
  routes,
  limits: (config) => ({
    PUSH_SEND_LIMIT: limits.pushSendLimit,
    PUSH_EXPIRY_SECONDS: config.push.expiryMs / 1000,
    PUSH_STATUS_MAX: config.push.status.max,
    PUSH_ACCOUNT_MAX: config.push.account.max,
    PUSH_ACCOUNT_WINDOW_MINUTES: config.push.account.windowMs / 60_000,
    DEVICE_PROOF_WINDOW_SECONDS: config.push.proofWindowMs / 1000,
    CREDENTIAL_MAX_PUSH_DEVICES: config.security.caps.pushDevices,
  }),
};
