import { readFileSync } from 'node:fs';
import cookie from '@fastify/cookie';
import {
  API_BASE,
  ErrorType,
  format,
  newRequestId,
  requestIdPattern,
  Status,
  serverMessages,
} from '@gatehouse/contract';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  LogController,
} from 'fastify';
import pino, { type DestinationStream } from 'pino';
import type { Config } from './config.ts';
import type { Context } from './context.ts';
import { type DB, openDatabase } from './db/database.ts';
import { migrate } from './db/migrations.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { ApiError, envelope, failure } from './lib/http.ts';
import { PasswordHasher } from './lib/passwords.ts';
import { RateLimiter } from './lib/rate-limit.ts';
import { clientLogsPlugin } from './plugins/client-logs.ts';
import { factorsPlugin } from './plugins/factors.ts';
import { healthPlugin } from './plugins/health.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { otpFactorPlugin } from './plugins/otp-factor.ts';
import { outboxPlugin } from './plugins/outbox.ts';
import { passwordPlugin } from './plugins/password.ts';
import { passwordUpdatePlugin } from './plugins/password-update.ts';
import { recoveryPlugin } from './plugins/recovery.ts';
import { rememberPlugin } from './plugins/remember.ts';
import { cookieNames, security } from './plugins/security.ts';
import { sessionPlugin } from './plugins/session.ts';
import { staticPlugin } from './plugins/static.ts';
import { trustedDevicePlugin } from './plugins/trusted-device.ts';
import { usernamePlugin } from './plugins/username.ts';
import { readDemoAccounts, seedDemoAccounts } from './seed.ts';
import { createMailer } from './services/mailer.ts';
import { SessionStore } from './services/sessions.ts';

export const version: string = JSON.parse(
  readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
).version;

/** Log fields that must never be written: secrets are replaced before a line leaves pino. */
export const redactPaths = [
  'req.headers.cookie',
  'req.headers["x-xsrf-token"]',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.oldPassword',
  '*.securityCode',
  '*.securityCode1',
  '*.securityCode2',
  '*.token',
  '*.code',
];

export type BuildOptions = {
  config: Config;
  db?: DB;
  clock?: Clock;
  logStream?: DestinationStream;
};

export async function buildApp(options: BuildOptions): Promise<{ app: FastifyInstance; ctx: Context }> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const db =
    options.db ??
    (await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl }
        : { kind: 'pglite', dir: config.dataDir },
    ));
  await migrate(db as never);

  const logger = pino(
    {
      level: config.logLevel,
      redact: { paths: redactPaths, censor: '[redacted]' },
      serializers: {
        req: (req) => ({
          method: req.method,
          url: String(req.url).replace(/\?.*$/, '?…'),
          remoteAddress: req.ip,
          appId: req.headers?.appid,
          appName: req.headers?.appname,
          eventType: req.headers?.eventtype,
          subEventType: req.headers?.sub_eventtype,
        }),
      },
    },
    options.logStream ?? process.stdout,
  );

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
      return typeof given === 'string' && requestIdPattern.test(given) ? given : newRequestId();
    },
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    // Requests that arrive while the service shuts down get the 503 envelope below, not
    // Fastify's own body.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: false },
  });

  const hasher = new PasswordHasher(config.argon2);
  const sessions = new SessionStore(db, clock, config);
  const mailer = createMailer(config, db, clock);
  const ctx: Context = {
    config,
    db,
    clock,
    hasher,
    limiter: new RateLimiter(db, clock),
    sessions,
    mailer,
    cookieNames: cookieNames(config),
  };

  // JSON bodies: an empty body is no body (DELETE and POST without payload); invalid JSON is a 400.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || body === undefined) return done(null, undefined);
    defaultJson(request, body as string, done);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Request-Id', request.id);
    return payload;
  });

  // Shutting down: requests still arriving on open connections are shed with 503 (code 5003),
  // so the load balancer retries them on another instance.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    reply.header('Connection', 'close');
    return failure(
      request,
      reply,
      new ApiError(503, Status.UNAVAILABLE, serverMessages.unavailable, ErrorType.SYSTEM),
    );
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.http >= 500) request.log.error({ err: error }, 'request failed');
      return failure(request, reply, error);
    }
    const code = error.code;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return failure(
        request,
        reply,
        new ApiError(400, Status.BAD_REQUEST, format(serverMessages.bodyTooLarge, config.bodyLimit)),
      );
    }
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return failure(
        request,
        reply,
        new ApiError(415, Status.BAD_REQUEST, serverMessages.unsupportedMediaType),
      );
    }
    if (error.statusCode === 400 || code?.startsWith('FST_ERR_CTP')) {
      return failure(request, reply, new ApiError(400, Status.BAD_REQUEST, serverMessages.malformedJson));
    }
    request.log.error({ err: error }, 'unhandled error');
    return failure(
      request,
      reply,
      new ApiError(500, Status.UNKNOWN, serverMessages.unknown, ErrorType.SYSTEM),
    );
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith(`${API_BASE}/`) || request.url === API_BASE) {
      return reply.code(404).send(
        envelope(
          request,
          {
            code: Status.NOT_FOUND,
            message: format(serverMessages.notFound, `${request.method} ${request.url.replace(/\?.*$/, '')}`),
          },
          { errorType: ErrorType.APPLICATION },
        ),
      );
    }
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });

  app.decorate('routeDocs', []);
  await app.register(cookie);
  await security(app, ctx);
  await app.register(healthPlugin, ctx);
  await app.register(passwordPlugin, ctx);
  await app.register(sessionPlugin, ctx);
  await app.register(rememberPlugin, ctx);
  await app.register(usernamePlugin, ctx);
  await app.register(recoveryPlugin, ctx);
  await app.register(passwordUpdatePlugin, ctx);
  await app.register(factorsPlugin, ctx);
  await app.register(otpFactorPlugin, ctx);
  await app.register(trustedDevicePlugin, ctx);
  await app.register(clientLogsPlugin, ctx);
  if (config.devCompanions) await app.register(outboxPlugin, ctx);
  await app.register(openApiPlugin, { version });
  if (config.serveApps) await app.register(staticPlugin);

  if (config.seedDemo) {
    const created = await seedDemoAccounts(
      db,
      hasher,
      clock,
      readDemoAccounts(new URL('../../../demo/accounts.json', import.meta.url)),
    );
    if (created) app.log.info({ created }, 'demo accounts seeded');
  }

  app.addHook('onClose', async () => {
    await mailer.close();
    if (!options.db) await db.destroy();
  });
  return { app, ctx };
}
