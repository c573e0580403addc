import type { AuditTrail } from './audit/audit.ts';
import type { Config } from './config.ts';
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

/** What every domain plugin is given: built once in app.ts. */
export type Context = {
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
  /** The names the server's own HttpOnly cookies go by (`__Host-` prefixed where configured). */
  cookieNames: CookieNames;
};

/** staff: the console's session cookie (path /api/console), never a customer's. */
export type CookieNames = { session: string; device: string; recovery: string; staff: string };
