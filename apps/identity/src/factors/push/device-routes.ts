import {
  type DeviceProof,
  type DeviceProofPurpose,
  type DeviceRegistration,
  demoDeviceClaimRequest,
  demoDevicesData,
  demoTokensData,
  devicePushAnswerData,
  devicePushAnswerRequest,
  devicePushesData,
  devicePushesRequest,
  deviceRegisterData,
  deviceRegisterRequest,
  deviceRegistrationsData,
  deviceRegistrationsRequest,
  deviceRemoveRequest,
  deviceRenameRequest,
  deviceStreamRequest,
  ErrorType,
  paths,
  pushAnswerMessage,
  Status,
  serverMessages,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { Context } from '../../context.ts';
import type { PushTransaction } from '../../db/schema.ts';
import { ApiError, answer, sessionExpired } from '../../lib/http.ts';
import { clientKey } from '../../lib/rate-limit.ts';
import { defineRoute } from '../../lib/route.ts';
import { UUID } from '../../lib/validate.ts';
import { capOf, capReached } from '../../security/credential-policy.ts';
import { readDemoAccounts } from '../../seed.ts';
import { notifyOwner } from '../../services/account-security.ts';
import { findAccount, findAccountById } from '../../services/accounts.ts';
import { parametersOf } from '../app-codes.ts';
import { canonicalJwk, parsePublicPart, proofHolds, proofTimely, verifySignature } from './device-keys.ts';
import type { DeviceHub } from './gateway.ts';
import type { PushStatusRow, PushStore } from './store.ts';

/**
 * The device app's calls (docs/decisions/022-push-and-device.md): every one but register is
 * authenticated by a device proof (the key's signature over purpose, time and key, within
 * DEVICE_PROOF_WINDOW_SECONDS); an answer to a push carries its own signature, which only the key of
 * the push's device verifies. No cookie authenticates a device. Proofs and signatures never reach a
 * log line or the audit trail.
 */

/** A push credential with its account's username: one registration of a device key. */
type RegistrationRow = {
  id: string;
  account_id: string;
  name: string;
  public_part: string | null;
  created_at: Date;
  last_used_at: Date | null;
  username: string;
};

const view = (row: RegistrationRow): DeviceRegistration => ({
  id: row.id,
  username: row.username,
  name: row.name,
  createdAt: new Date(row.created_at).toISOString(),
  lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
});

/**
 * Device calls per client address, before anything else: every proof costs a lookup and a signature
 * check, so a flood of made-up proofs is a cheap lever on the database and the CPU (429, Retry-After).
 */
const limitDeviceClient = (ctx: Context, request: FastifyRequest) =>
  ctx.limiter.enforce(request, [[`device:client:${clientKey(request.ip)}`, ctx.config.push.deviceClient]]);

export function deviceRoutes(app: FastifyInstance, ctx: Context, store: PushStore, hub: DeviceHub) {
  const windowMs = ctx.config.push.proofWindowMs;
  const refused = (request: FastifyRequest, reply: FastifyReply, why: string) => {
    request.log.info({ why }, 'device: proof refused');
    return answer(request, reply, Status.FORBIDDEN, { message: 'deviceProofRefused' });
  };

  const limitClient = (request: FastifyRequest) => limitDeviceClient(ctx, request);

  /** Every registration of a device key (all accounts), oldest first. */
  const registrationsByKey = (key: string): Promise<RegistrationRow[]> =>
    ctx.db
      .selectFrom('credentials as c')
      .innerJoin('accounts as a', 'a.id', 'c.account_id')
      .select([
        'c.id',
        'c.account_id',
        'c.name',
        'c.public_part',
        'c.created_at',
        'c.last_used_at',
        'a.username',
      ])
      .where('c.kind', '=', 'push')
      .where(sql<string>`c.data->>'thumbprint'`, '=', key)
      .orderBy('c.created_at')
      .orderBy('c.id')
      .execute();

  /** The registrations of the key that made a proof for `purpose`, or null when it does not hold. */
  async function proved(proof: DeviceProof, purpose: DeviceProofPurpose): Promise<RegistrationRow[] | null> {
    if (!proofTimely(proof, ctx.clock, windowMs)) return null;
    const rows = await registrationsByKey(proof.key);
    const key = parsePublicPart(rows[0]?.public_part ?? null);
    if (!key || !(await proofHolds(proof, purpose, key, ctx.clock, windowMs))) return null;
    return rows;
  }

  defineRoute(app, {
    method: 'POST',
    path: paths.devicePushes,
    tag: 'device',
    summary:
      "A device's pushes across the accounts it is registered to: pending first, then the last 20 answered or expired (proof purpose 'pushes').",
    body: devicePushesRequest,
    successData: devicePushesData,
    handler: async ({ request, reply, body }) => {
      await limitClient(request);
      const rows = await proved(body.proof, 'pushes');
      if (!rows) return refused(request, reply, 'pushes');
      const pushes = await store.forCredentials(rows.map((r) => r.id));
      return answer(request, reply, Status.SUCCESS, {
        message: 'success',
        successData: { pushes: pushes.map((p) => store.deviceView(p)) },
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.devicePushAnswer,
    tag: 'device',
    summary:
      "Answer a push: APPROVE, DECLINE or FRAUD, signed by the push's own device key over pushAnswerMessage(id, decision, number). 1409 answered already, 1410 expired.",
    body: devicePushAnswerRequest,
    successData: devicePushAnswerData,
    handler: async ({ request, reply, body }) => {
      await limitClient(request);
      const id = body.id.trim().toLowerCase();
      const push = UUID.test(id) ? await store.get(id) : undefined;
      if (!push) return answer(request, reply, Status.UNKNOWN_TRANSACTION, { message: 'pushUnknown' });
      const credential = await ctx.credentials.get(push.credential_id);
      const key = parsePublicPart(credential?.publicPart ?? null);
      if (!credential || !key || credential.data.thumbprint !== body.key) {
        return refused(request, reply, 'answer by another key');
      }
      // Number matching (decision 032): an approval must carry the number the sign-in screen shows,
      // typed by the customer; any other number, or none, ends the push as WRONG_NUMBER.
      const number = body.number ?? '';
      if (!(await verifySignature(key, pushAnswerMessage(push.id, body.decision, number), body.signature))) {
        return refused(request, reply, 'answer signature');
      }
      const next: PushStatusRow =
        body.decision === 'DECLINE'
          ? 'DECLINED'
          : body.decision === 'FRAUD'
            ? 'FRAUD'
            : push.number !== null && number !== push.number
              ? 'WRONG_NUMBER'
              : 'APPROVED';
      const answered = await store.answer(push.id, next, body.key);
      if (!answered) {
        const now = await store.get(push.id);
        if (!now) return answer(request, reply, Status.UNKNOWN_TRANSACTION, { message: 'pushUnknown' });
        if (await store.withdrawn(now)) {
          // Withdrawn when its sign-in ended (the account locked): nothing was approved; say so.
          return answer(request, reply, Status.TRANSACTION_WITHDRAWN);
        }
        if (now.status === 'PENDING' || now.status === 'EXPIRED') {
          if (await store.expire(push.id)) {
            await ctx.audit.record(request, {
              event: 'push-expired',
              outcome: 'failure',
              accountId: push.account_id,
              journeyId: push.journey_id,
            });
          }
          return answer(request, reply, Status.TRANSACTION_EXPIRED, { message: 'pushExpired' });
        }
        return answer(request, reply, Status.ALREADY_ANSWERED, { message: 'pushAlreadyAnswered' });
      }
      await recordAnswer(ctx, request, answered, credential.name);
      request.log.info({ account: push.account_id, push: push.id, answer: next }, 'push: answered');
      hub.notify(body.key);
      return answer(request, reply, Status.SUCCESS, {
        message: 'pushAnswered',
        successData: { status: store.statusOf(answered, 'device') },
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.deviceStream,
    tag: 'device',
    summary:
      "Server-sent events (text/event-stream) for a device (proof purpose 'stream'): `event: pushes` when its pushes changed (then read devicePushes), a comment every 15 s.",
    body: deviceStreamRequest,
    handler: async ({ request, reply, body }) => {
      await limitClient(request);
      const rows = await proved(body.proof, 'stream');
      if (!rows) return refused(request, reply, 'stream');
      const raw = reply.raw;
      let beat: NodeJS.Timeout | undefined;
      let stop: (() => void) | undefined;
      const end = () => {
        if (!untrack?.()) return;
        clearInterval(beat);
        stop?.();
        if (!raw.writableEnded) raw.end();
        request.log.info('device: stream closed');
      };
      const untrack = hub.track(body.proof.key, end, ctx.config.push.streams) ?? undefined;
      if (!untrack) {
        // Every stream slot is taken: the device still re-reads its pushes every 10 s.
        request.log.warn({ open: hub.streamCount() }, 'device: stream refused, too many open');
        throw new ApiError(503, Status.UNAVAILABLE, serverMessages.unavailable, ErrorType.SYSTEM, {
          'Retry-After': '30',
        });
      }
      reply.hijack();
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        'x-request-id': String(request.id),
      });
      raw.write(': connected\n\n');
      stop = hub.listen(body.proof.key, () => raw.write('event: pushes\ndata: {}\n\n'));
      beat = setInterval(() => raw.write(': heartbeat\n\n'), 15_000);
      beat.unref();
      raw.on('close', end);
      request.log.info({ registrations: rows.length }, 'device: stream opened');
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.deviceRegister,
    tag: 'device',
    summary:
      "Register this device's key as a push device of the signed-in account: needs the security page's step-up (a STEPUP journey within SECURITY_STEPUP_MINUTES, proved by an established credential; the sign-in's own factor never counts), a proof (purpose 'register') by the key, and room under CREDENTIAL_MAX_PUSH_DEVICES. The owner is told by every established contact.",
    body: deviceRegisterRequest,
    successData: deviceRegisterData,
    handler: async ({ request, reply, body }) => {
      await limitClient(request);
      const session = await ctx.sessions.load(request.cookies[ctx.cookieNames.session]);
      if (!session) throw sessionExpired();
      if (!(await proofHolds(body.proof, 'register', body.publicKey, ctx.clock, windowMs))) {
        return refused(request, reply, 'register');
      }
      // Adding a credential needs an established proof (decision 030): the security page's step-up,
      // which a recent credential never satisfies. A sign-in alone (a stolen cookie) is not one.
      const since = await ctx.sessions.provedSince(session.id, {
        withinMs: ctx.config.security.stepUpMs,
        journeyKind: 'stepup',
      });
      if (!since) {
        await ctx.audit.record(request, {
          event: 'device-registered',
          outcome: 'failure',
          accountId: session.account_id,
          detail: { reason: 'no step-up' },
        });
        return answer(request, reply, Status.FORBIDDEN, {
          message: 'deviceNeedsFactor',
          params: [ctx.config.factor.contactWaitMs / 86_400_000],
        });
      }
      const key = body.proof.key;
      // One registration per key and account, and at most CREDENTIAL_MAX_PUSH_DEVICES: concurrent
      // registrations are serialised on the account's row (without it, PostgreSQL made one row per
      // request, and a burst passed any count read before the insert).
      const outcome = await ctx.sessions.underAccount(session.account_id, 'update', async (_s, tx) => {
        const devices = await ctx.credentials.withDb(tx).list(session.account_id, 'push');
        const mine = devices.find((d) => d.data.thumbprint === key);
        let id = mine?.id;
        if (id) {
          await tx.updateTable('credentials').set({ name: body.name }).where('id', '=', id).execute();
        } else {
          if (capReached(ctx, devices, 'push')) return 'cap' as const;
          const added = await ctx.credentials.withDb(tx).add({
            accountId: session.account_id,
            kind: 'push',
            name: body.name,
            publicPart: canonicalJwk(body.publicKey),
            data: { thumbprint: key, algorithm: 'ES256' },
          });
          id = added.id;
        }
        // The device and its audit row commit together: a fault between them would leave a device
        // whose retry (`again`) never tells the owner.
        await ctx.audit.withDb(tx).record(request, {
          event: 'device-registered',
          outcome: 'success',
          accountId: session.account_id,
          detail: { name: body.name, again: !!mine },
        });
        return { id, again: !!mine };
      });
      if (outcome === 'cap') {
        await ctx.audit.record(request, {
          event: 'device-registered',
          outcome: 'failure',
          accountId: session.account_id,
          detail: { reason: 'cap' },
        });
        return answer(request, reply, Status.LIMIT_REACHED, {
          message: 'capPushDevices',
          params: [capOf(ctx, 'pushDevices')],
        });
      }
      const { id, again } = outcome;
      if (!again) {
        const account = await findAccountById(ctx.db, session.account_id);
        if (account) await notifyOwner(ctx, request, account, 'device-registered');
      }
      const row = (await registrationsByKey(key)).find((r) => r.id === id)!;
      hub.notify(key);
      return answer(request, reply, Status.SUCCESS, {
        message: 'deviceRegistered',
        successData: { registration: view(row) },
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.deviceRegistrations,
    tag: 'device',
    summary: "The accounts this device key is registered to (proof purpose 'registrations').",
    body: deviceRegistrationsRequest,
    successData: deviceRegistrationsData,
    handler: async ({ request, reply, body }) => {
      await limitClient(request);
      const rows = await proved(body.proof, 'registrations');
      if (!rows) return refused(request, reply, 'registrations');
      return answer(request, reply, Status.SUCCESS, {
        message: 'success',
        successData: { registrations: rows.map(view) },
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.deviceRename,
    tag: 'device',
    summary: "Rename one of this key's registrations (proof purpose 'rename:{id}').",
    body: deviceRenameRequest,
    successData: deviceRegisterData,
    handler: async ({ request, reply, body }) => {
      await limitClient(request);
      const rows = await proved(body.proof, `rename:${body.id}`);
      if (!rows) return refused(request, reply, 'rename');
      const row = rows.find((r) => r.id === body.id.toLowerCase());
      if (!row) return answer(request, reply, Status.UNKNOWN_TRANSACTION, { message: 'pushUnknown' });
      await ctx.db.updateTable('credentials').set({ name: body.name }).where('id', '=', row.id).execute();
      await ctx.audit.record(request, {
        event: 'device-renamed',
        outcome: 'success',
        accountId: row.account_id,
        detail: { name: body.name },
      });
      return answer(request, reply, Status.SUCCESS, {
        message: 'deviceRenamed',
        successData: { registration: view({ ...row, name: body.name }) },
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.deviceRemove,
    tag: 'device',
    summary:
      "Remove one of this key's registrations (proof purpose 'remove:{id}'): the account's pushes to it go with it.",
    body: deviceRemoveRequest,
    handler: async ({ request, reply, body }) => {
      await limitClient(request);
      const rows = await proved(body.proof, `remove:${body.id}`);
      if (!rows) return refused(request, reply, 'remove');
      const row = rows.find((r) => r.id === body.id.toLowerCase());
      if (!row || !(await ctx.credentials.remove(row.id, row.account_id))) {
        return answer(request, reply, Status.UNKNOWN_TRANSACTION, { message: 'pushUnknown' });
      }
      await ctx.audit.record(request, {
        event: 'device-removed',
        outcome: 'success',
        accountId: row.account_id,
        detail: { name: row.name },
      });
      const owner = await findAccountById(ctx.db, row.account_id);
      if (owner) await notifyOwner(ctx, request, owner, 'device-removed');
      hub.notify(body.proof.key);
      return answer(request, reply, Status.SUCCESS, { message: 'deviceRemoved' });
    },
  });
}

/** The audit trail of an answer; a fraud report ends the login journey and (by default) locks the account. */
async function recordAnswer(ctx: Context, request: FastifyRequest, push: PushTransaction, device: string) {
  const base = { accountId: push.account_id, journeyId: push.journey_id };
  if (push.status === 'APPROVED') {
    await ctx.audit.record(request, {
      event: 'push-approved',
      outcome: 'success',
      ...base,
      detail: { device, ...(push.number !== null ? { numberMatched: true } : {}) },
    });
    return;
  }
  if (push.status === 'WRONG_NUMBER') {
    // A typed number that is not the sign-in screen's (or none): the push ends here, refused
    // (decision 032). The journey may send again within its limits; this push cannot be approved.
    request.log.warn({ account: push.account_id }, 'push: wrong number typed');
    await ctx.audit.record(request, {
      event: 'push-wrong-number',
      outcome: 'failure',
      ...base,
      detail: { device },
    });
    return;
  }
  if (push.status === 'DECLINED') {
    await ctx.audit.record(request, {
      event: 'push-declined',
      outcome: 'failure',
      ...base,
      detail: { device },
    });
    return;
  }
  // FRAUD: the journey that sent it stops here (the widget's next poll clears its cookies).
  await ctx.journeys.failLoginOnFraud(push.journey_id);
  let locked = false;
  if (ctx.config.push.fraudLocksAccount) {
    const result = await ctx.db
      .updateTable('accounts')
      .set({ status: 'locked', locked_by_fraud: true, updated_at: ctx.clock.now() })
      .where('id', '=', push.account_id)
      .where('status', '=', 'active')
      .executeTakeFirst();
    locked = Number(result.numUpdatedRows) === 1;
    await ctx.sessions.endAllForAccount(push.account_id, 'push-fraud');
  }
  request.log.warn({ account: push.account_id, locked }, 'push: reported as fraud');
  await ctx.audit.record(request, {
    event: 'push-fraud',
    outcome: 'failure',
    ...base,
    detail: { device, locked },
  });
  const owner = await findAccountById(ctx.db, push.account_id);
  if (owner) await notifyOwner(ctx, request, owner, 'fraud-reported');
}

/**
 * Development only: the demo accounts' seeded devices, claiming one with this browser's key, and
 * the demo tokens' otpauth:// URIs for the device app's codes (docs/decisions/026-device-app-codes.md).
 */
export function demoDeviceRoutes(app: FastifyInstance, ctx: Context) {
  const demoFile = new URL('../../../../../demo/accounts.json', import.meta.url);
  const demoPush = () => readDemoAccounts(demoFile).filter((a) => a.tags.includes('push'));

  defineRoute(app, {
    method: 'GET',
    path: paths.devDemoDevices,
    tag: 'development',
    summary: 'Development mode only: the demo accounts with a seeded push device.',
    rawResponse: demoDevicesData,
    handler: async ({ request, reply }) =>
      answer(request, reply, Status.SUCCESS, {
        body: { accounts: demoPush().map((a) => ({ username: a.username, about: a.about })) },
      }),
  });

  const demoToken = () => readDemoAccounts(demoFile).filter((a) => a.tags.includes('token'));

  defineRoute(app, {
    method: 'GET',
    path: paths.devDemoTokens,
    tag: 'development',
    summary:
      "Development mode only: the demo accounts' token credentials as otpauth:// URIs (issuer VIP, label the credential id), read from the seeded, encrypted credential.",
    rawResponse: demoTokensData,
    handler: async ({ request, reply }) => {
      await limitDeviceClient(ctx, request);
      const accounts: Array<{ username: string; credentialId: string; uri: string }> = [];
      for (const demo of demoToken()) {
        const account = await findAccount(ctx.db, demo.username);
        const [credential] = account ? await ctx.credentials.list(account.id, 'token') : [];
        if (!account || !credential?.publicPart) continue;
        const secret = await ctx.credentials.readSecret(credential);
        try {
          const uri = new TOTP({
            issuer: 'VIP',
            label: credential.publicPart,
            secret: new Secret({ buffer: Uint8Array.from(secret).buffer }),
            ...parametersOf(credential),
          }).toString();
          accounts.push({ username: account.username, credentialId: credential.publicPart, uri });
        } finally {
          secret.fill(0);
        }
      }
      return answer(request, reply, Status.SUCCESS, { body: { accounts } });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.devDemoDeviceClaim,
    tag: 'development',
    summary:
      "Development mode only: a demo account's seeded push device takes this browser's key (proof purpose 'claim:{username}').",
    body: demoDeviceClaimRequest,
    successData: deviceRegisterData,
    handler: async ({ request, reply, body }) => {
      await limitDeviceClient(ctx, request);
      const windowMs = ctx.config.push.proofWindowMs;
      if (!(await proofHolds(body.proof, `claim:${body.username}`, body.publicKey, ctx.clock, windowMs))) {
        request.log.info({ why: 'claim' }, 'device: proof refused');
        return answer(request, reply, Status.FORBIDDEN, { message: 'deviceProofRefused' });
      }
      const unknown = () =>
        answer(request, reply, Status.UNKNOWN_TRANSACTION, { message: 'demoDeviceUnknown' });
      const demo = demoPush().find((a) => a.username.toLowerCase() === body.username.trim().toLowerCase());
      const account = demo && (await findAccount(ctx.db, demo.username));
      if (!account) return unknown();
      const [seeded] = await ctx.credentials.list(account.id, 'push');
      if (!seeded) return unknown();
      const row = await ctx.db
        .updateTable('credentials')
        .set({
          public_part: canonicalJwk(body.publicKey),
          data: sql`data || ${JSON.stringify({ thumbprint: body.proof.key })}::jsonb` as never,
        })
        .where('id', '=', seeded.id)
        .returning(['id', 'account_id', 'name', 'public_part', 'created_at', 'last_used_at'])
        .executeTakeFirstOrThrow();
      request.log.info({ account: account.id }, 'device: demo device claimed');
      return answer(request, reply, Status.SUCCESS, {
        message: 'deviceRegistered',
        successData: { registration: view({ ...row, username: account.username }) },
      });
    },
  });
}
