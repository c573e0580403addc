import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import { API_BASE, appDefaults, paths, requestIdPattern, Status, serverMessages } from '@gatehouse/contract';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import { consolePlugin } from './console/plugin.ts';
import { readDemoStaff, seedDemoStaff } from './console/staff.ts';
import { type Context, contextOf } from './context.ts';
import { type DB, openDatabase } from './db/database.ts';
import {
  DatabaseFailure,
  DatabaseRefusedValue,
  DatabaseUnavailable,
  databaseErrorFields,
} from './db/faults.ts';
import { migrate } from './db/migrations.ts';
import { loadFactors } from './factors/registry.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { ApiError, answer, failure } from './lib/http.ts';
import { createLogger } from './lib/log.ts';
import { oidcPlugin } from './oidc/plugin.ts';
import { clientLogsPlugin } from './plugins/client-logs.ts';
import { deviceRiskPlugin } from './plugins/device-risk.ts';
import { factorsPlugin } from './plugins/factors.ts';
import { guardsPlugin } from './plugins/guards.ts';
import { healthPlugin } from './plugins/health.ts';
import { openApiPlugin, swaggerOptions } from './plugins/openapi.ts';
import { outboxPlugin } from './plugins/outbox.ts';
import { passwordPlugin } from './plugins/password.ts';
import { passwordUpdatePlugin } from './plugins/password-update.ts';
import { recoveryPlugin } from './plugins/recovery.ts';
import { rememberPlugin } from './plugins/remember.ts';
import { security } from './plugins/security.ts';
import { registerServices } from './plugins/services.ts';
import { sessionPlugin } from './plugins/session.ts';
import { type Site, staticPlugin } from './plugins/static.ts';
import { trustedDevicePlugin } from './plugins/trusted-device.ts';
import { usernamePlugin } from './plugins/username.ts';
import { securityPagePlugin } from './security/routes.ts';
import { readDemoAccounts, refusePublishedDemoData, seedDemoAccounts } from './seed.ts';
import { scheduleCleanUp } from './services/cleanup.ts';
import { type DeviceRiskRule, defaultDeviceRiskRule } from './services/device-risk.ts';

export const version: string = JSON.parse(
  readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
).version;

/** 404 with the envelope, for /api and static paths alike; the path is quoted, cut at 200 characters. */
function notFound(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.replace(/\?.*$/, '');
  const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  return answer(request, reply, Status.NOT_FOUND, { params: [`${request.method} ${shown}`] });
}

/**
 * One log line per request at info, written when the answer is sent: `request completed` with the
 * request id, method, path, route, client address, the clients' correlation headers, status and
 * time in ms (`request errored` at error level when the answer failed). The arrival
 * (`incoming request`) only at debug: two lines per request cost a tenth of the throughput of a
 * light call (issue 14). Fastify's other lines (stream and header errors) are unchanged.
 */
/**
 * A request id of the spec's shape (portal spec §3: the prefix REQ and 32 random characters) from
 * one `crypto.randomUUID()`: its 32 hex digits (122 random bits) are of the contract's alphabet, at
 * a fraction of the cost of drawing characters one by one (issue 25).
 */
const serverRequestId = () => `${appDefaults.requestIdPrefix}${randomUUID().replaceAll('-', '')}`;

/** The load balancer's probe route (paths.live). */
const LIVE = `${API_BASE}${paths.live}`;

class OneLinePerRequest extends LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) {
      request.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    } else if (reply.statusCode === 200 && request.routeOptions.url === LIVE) {
      // A load balancer's probe every few seconds: at debug, so the info log keeps what people did.
      request.log.debug({ req: request, res: reply, responseTime: reply.elapsedTime }, 'probe answered');
    } else {
      request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}

export type BuildOptions = {
  config: Config;
  db?: DB;
  clock?: Clock;
  logStream?: DestinationStream;
  /** Folders served when SERVE_APPS is on, instead of the built apps (tests). */
  staticSites?: Site[];
  /**
   * The device-risk rule hook (services/device-risk.ts, decision 045): whether a login journey owes
   * a second factor on its signals, even on a trusted device. Unset: a score at or above
   * RISK_SECOND_FACTOR_SCORE does. Used only when the step is on (RISK_SCRIPT_URL).
   */
  deviceRiskRule?: DeviceRiskRule;
};

/** Database handles an app of this process has migrated. */
const migratedHandles = new WeakSet<object>();

export async function buildApp(options: BuildOptions): Promise<{ app: FastifyInstance; ctx: Context }> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  // The factor modules, found by walking factors/*/module.ts once (decision 036).
  await loadFactors();
  // No redaction pass: what a line carries is named by its serializers and fields (lib/log.ts).
  const logger = createLogger(config.logLevel, options.logStream ?? process.stdout);
  const db =
    options.db ??
    (await openDatabase(
      config.databaseUrl
        ? {
            kind: 'postgres',
            url: config.databaseUrl,
            ...config.database,
            log: (fields, message) => logger.error({ db: fields }, message),
          }
        : { kind: 'pglite', dir: config.dataDir },
    ));
  // Once per database handle in a process: an app built again on the same handle (the API tests
  // build one per test) does not read the migrator's catalog again (55 ms on PGlite).
  if (!migratedHandles.has(db)) {
    await migrate(db as never);
    migratedHandles.add(db);
  }
  if (config.production) {
    // The published demo accounts and staff never live in a production database (seed.ts).
    try {
      await refusePublishedDemoData(db, {
        accounts: readDemoAccounts(new URL('../../../demo/accounts.json', import.meta.url)),
        staff: readDemoStaff(new URL('../../../demo/staff.json', import.meta.url)),
      });
    } catch (error) {
      if (!options.db) await db.destroy();
      throw error;
    }
  }

  const app = Fastify({
    loggerInstance: logger as unknown as FastifyBaseLogger,
    bodyLimit: config.bodyLimit,
    // A hop count becomes "trust the n nearest hops" (Fastify's typings take no number).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && requestIdPattern.test(given) ? given : serverRequestId();
    },
    logController: new OneLinePerRequest({ requestIdLogLabel: 'requestId' }),
    // Requests that arrive while the service shuts down get the 503 envelope below, not
    // Fastify's own body.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: false },
    // A URL the router cannot decode (`/api/%zz`, `%C0%AF`): the 400 envelope, not Fastify's body.
    frameworkErrors: (error, request, reply) => {
      request.log.info({ code: error.code }, 'refused request URL');
      return answer(request, reply, Status.BAD_REQUEST, { params: ['the URL is not valid'] });
    },
  });

  // An answer outside its route's outcome table fails loudly except in production (lib/http.ts).
  app.decorate('outcomesStrict', !config.production);

  // The services, as decorators of the instance (plugins/services.ts), and the request fields the
  // route guards fill (plugins/guards.ts). `ctx`: the same services as a plain object.
  await registerServices(app, { config, db, clock });
  await app.register(guardsPlugin);
  const ctx = contextOf(app);

  // JSON bodies: an empty body is no body (DELETE and POST without payload); invalid JSON is a 400.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || body === undefined) return done(null, undefined);
    defaultJson(request, body as string, done);
  });

  // Callback-style hooks where nothing is awaited: every request runs them, and an async hook costs
  // a promise per request (issue 25).
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('X-Request-Id', request.id);
    done(null, payload);
  });

  // Shutting down: requests still arriving on open connections are shed with 503 (code 5003),
  // so the load balancer retries them on another instance.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    reply.header('Connection', 'close');
    answer(request, reply, Status.UNAVAILABLE);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DatabaseUnavailable || error instanceof DatabaseRefusedValue) {
      // The database's code and message only: never the query's parameters or the connection.
      const level = error.http >= 500 ? 'error' : 'info';
      request.log[level]({ db: databaseErrorFields(error) }, 'database refused the request');
      return failure(request, reply, error);
    }
    if (error instanceof DatabaseFailure) {
      request.log.error({ db: databaseErrorFields(error) }, 'database error');
      return answer(request, reply, Status.UNKNOWN);
    }
    if (error instanceof ApiError) {
      if (error.http >= 500) request.log.error({ err: error }, 'request failed');
      return failure(request, reply, error);
    }
    const code = error.code;
    // A static-file path the file server refuses (traversal, NUL, `//host`): no such file.
    if (code?.startsWith('FST_STATIC') || error.statusCode === 403 || error.statusCode === 404) {
      return notFound(request, reply);
    }
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return answer(request, reply, Status.BAD_REQUEST, {
        message: 'bodyTooLarge',
        params: [config.bodyLimit],
      });
    }
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      // 4400 with HTTP 415: the one answer whose HTTP status is not its table's first (alsoHttp).
      return failure(
        request,
        reply,
        new ApiError(415, Status.BAD_REQUEST, serverMessages.unsupportedMediaType),
      );
    }
    if (code?.startsWith('FST_ERR_CTP') || (error.statusCode === 400 && error instanceof SyntaxError)) {
      return answer(request, reply, Status.BAD_REQUEST, { message: 'malformedJson' });
    }
    // Any other refusal of the request by Fastify or a plugin (a bad header, a wrong method on a
    // file): 400 in the envelope, without the framework's text.
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ code }, 'refused request');
      return answer(request, reply, Status.BAD_REQUEST, { params: ['the request was refused'] });
    }
    request.log.error({ err: error }, 'unhandled error');
    return answer(request, reply, Status.UNKNOWN);
  });

  app.setNotFoundHandler((request, reply) => notFound(request, reply));

  app.decorate('routeDocs', []);
  // Before the routes: it collects them as they are registered.
  await app.register(
    swagger,
    swaggerOptions(version, () => app.routeDocs),
  );
  await app.register(cookie);
  await security(app, ctx);
  await app.register(healthPlugin, ctx);
  await app.register(passwordPlugin, ctx);
  // The context itself, never a copy: per-context state (the push gateway's, for one) is keyed by it.
  const deviceRiskRule = options.deviceRiskRule ?? defaultDeviceRiskRule;
  await app.register(async (instance) => sessionPlugin(instance, ctx, deviceRiskRule));
  await app.register(rememberPlugin, ctx);
  await app.register(usernamePlugin, ctx);
  await app.register(recoveryPlugin, ctx);
  await app.register(passwordUpdatePlugin, ctx);
  await app.register(factorsPlugin, ctx);
  await app.register(trustedDevicePlugin, ctx);
  await app.register(securityPagePlugin, ctx);
  await app.register(clientLogsPlugin, ctx);
  await app.register(deviceRiskPlugin, ctx);
  await app.register(consolePlugin, ctx);
  if (config.devCompanions) await app.register(outboxPlugin, ctx);
  await app.register(openApiPlugin);
  // The OpenID Provider (oidc/; decision 048): its routes at the root, before the apps' files.
  await oidcPlugin(app, ctx);
  if (config.serveApps) {
    const { deviceRisk } = config;
    await app.register(staticPlugin, {
      ...(options.staticSites ? { sites: options.staticSites } : {}),
      // The portal's widget runs the device-risk step the service's CSP allows (decision 045).
      ...(deviceRisk
        ? {
            environment: { deviceRisk: { scriptUrl: deviceRisk.scriptUrl, beaconUrl: deviceRisk.beaconUrl } },
          }
        : {}),
    });
  }

  if (config.seedDemo) {
    const created = await seedDemoAccounts(
      db,
      ctx.hasher,
      clock,
      readDemoAccounts(new URL('../../../demo/accounts.json', import.meta.url)),
      ctx.credentials,
    );
    if (created) app.log.info({ created }, 'demo accounts seeded');
    const staff = await seedDemoStaff(
      ctx.staffStore,
      readDemoStaff(new URL('../../../demo/staff.json', import.meta.url)),
    );
    if (staff) app.log.info({ created: staff }, 'demo staff seeded');
  }

  const stopCleanUp = scheduleCleanUp(ctx, (fields, message) => app.log.info(fields, message));
  app.addHook('onClose', async () => {
    stopCleanUp();
    await ctx.mailer.close();
    if (!options.db) await db.destroy();
  });
  return { app, ctx };
}
