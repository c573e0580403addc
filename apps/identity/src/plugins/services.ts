import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AuditTrail } from '../audit/audit.ts';
import type { Config } from '../config.ts';
import { StaffStore } from '../console/staff.ts';
import { CredentialCipher } from '../credentials/cipher.ts';
import { CredentialStore } from '../credentials/store.ts';
import type { DB } from '../db/database.ts';
import { FactorEngine } from '../factors/engine.ts';
import { JourneyStore } from '../journeys/store.ts';
import type { Clock } from '../lib/clock.ts';
import { PasswordHasher } from '../lib/passwords.ts';
import { RateLimiter } from '../lib/rate-limit.ts';
import { cookieNames } from '../services/cookies.ts';
import { createMailer } from '../services/mailer.ts';
import { SessionStore } from '../services/sessions.ts';
import { createPhoneSender } from '../services/sms.ts';

/**
 * The services as the instance's decorators (context.ts), each plugin naming the plugins whose
 * decorators it uses (fastify-plugin `dependencies`: Fastify refuses to start when one is missing
 * or registered later). Unencapsulated, so every route plugin registered after them reads them
 * from its own instance (docs/decisions/038-services-and-guards.md).
 */

/** The settings, the database, the clock and the cookie names: what every other service is built on. */
const corePlugin = fp(
  async (app: FastifyInstance, options: { config: Config; db: DB; clock: Clock }) => {
    app.decorate('config', options.config);
    app.decorate('db', options.db);
    app.decorate('clock', options.clock);
    app.decorate('cookieNames', cookieNames(options.config));
  },
  { name: 'gatehouse-core' },
);

/** The stores and the password hasher. */
const storesPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, db, clock } = app;
    app.decorate('hasher', new PasswordHasher(config.argon2, config.argon2Pool));
    app.decorate('limiter', new RateLimiter(db, clock));
    app.decorate('sessions', new SessionStore(db, clock, config));
    app.decorate('journeys', new JourneyStore(db, clock, config));
    app.decorate('audit', new AuditTrail(db, clock));
    app.decorate('credentials', new CredentialStore(db, new CredentialCipher(config.credentialKeys), clock));
    app.decorate('staffStore', new StaffStore(db, clock, app.hasher, config));
  },
  { name: 'gatehouse-stores', dependencies: ['gatehouse-core'] },
);

/** E-mail and phone delivery. */
const deliveryPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('mailer', createMailer(app.config, app.db, app.clock));
    app.decorate('phone', createPhoneSender(app.config, app.db, app.clock));
  },
  { name: 'gatehouse-delivery', dependencies: ['gatehouse-core'] },
);

/**
 * The factor engine: it works on the instance's services, the stores and the delivery among them
 * (it reads them when a request needs them, so the instance itself is its context).
 */
const enginePlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('engine', new FactorEngine(app));
  },
  { name: 'gatehouse-engine', dependencies: ['gatehouse-stores', 'gatehouse-delivery'] },
);

/** Every service, in the order their dependencies ask for. */
export async function registerServices(
  app: FastifyInstance,
  options: { config: Config; db: DB; clock: Clock },
) {
  await app.register(corePlugin, options);
  await app.register(storesPlugin);
  await app.register(deliveryPlugin);
  await app.register(enginePlugin);
}
