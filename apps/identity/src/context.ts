import type { FastifyInstance } from 'fastify';
import type { AuditTrail } from './audit/audit.ts';
import type { Config } from './config.ts';
import type { StaffStore } from './console/staff.ts';
import type { CredentialStore } from './credentials/store.ts';
import type { DB } from './db/database.ts';
import type { FactorEngine } from './factors/engine.ts';
import type { JourneyStore } from './journeys/store.ts';
import type { Clock } from './lib/clock.ts';
import type { PasswordHasher } from './lib/passwords.ts';
import type { RateLimiter } from './lib/rate-limit.ts';
import type { Mailer } from './services/mailer.ts';
import type { SessionStore } from './services/sessions.ts';
import type { PhoneSender } from './services/sms.ts';

/**
 * The service's services. Each is a decorator of the Fastify instance, put there by the plugin
 * that builds it (plugins/services.ts, each declaring the plugins it depends on); a route plugin
 * reads them from its instance. `Context` is the same set as a plain object, for code that is not
 * a route (the clean-up, the seed, the tests, e2e/ and bench/): contextOf(app).
 */
export interface Context {
  config: Config;
  db: DB;
  clock: Clock;
  hasher: PasswordHasher;
  limiter: RateLimiter;
  sessions: SessionStore;
  /** Login, step-up and recovery journeys (rows). */
  journeys: JourneyStore;
  /** Completes factors and decides the next step of a journey. */
  engine: FactorEngine;
  /** The audit trail of security events. */
  audit: AuditTrail;
  /** E-mail delivery: SMTP, or the development outbox. */
  mailer: Mailer;
  /** Texts and voice calls: the SMS webhook, or the development outbox. */
  phone: PhoneSender;
  /** Accounts' credentials (phones, addresses, TOTP, tokens, push devices); secrets encrypted at rest. */
  credentials: CredentialStore;
  /** The console's staff members and their sessions. */
  staffStore: StaffStore;
  /** The names the server's own HttpOnly cookies go by (`__Host-` prefixed where configured). */
  cookieNames: CookieNames;
}

declare module 'fastify' {
  // The services are the instance's decorators (plugins/services.ts).
  interface FastifyInstance extends Context {}
}

/** staff: the console's session cookie (path /api/console), never a customer's. */
export type CookieNames = { session: string; device: string; recovery: string; staff: string };

/** The services of an app whose service plugins have loaded, as a plain object. */
export const contextOf = (app: FastifyInstance): Context => ({
  config: app.config,
  db: app.db,
  clock: app.clock,
  hasher: app.hasher,
  limiter: app.limiter,
  sessions: app.sessions,
  journeys: app.journeys,
  engine: app.engine,
  audit: app.audit,
  mailer: app.mailer,
  phone: app.phone,
  credentials: app.credentials,
  staffStore: app.staffStore,
  cookieNames: app.cookieNames,
});
