/**
 * The identity service's surface for the tools beside it (the end-to-end journeys in e2e/, the
 * benchmarks in bench/): what builds and runs the service, its database and its stores. Other
 * workspaces import the service through this entry (`@gatehouse/identity`), never by a relative
 * path into its source (test/architecture.test.ts holds this).
 */
export { buildApp } from './app.ts';
export { loadConfig } from './config.ts';
export { readDemoStaff } from './console/staff.ts';
export type { Context } from './context.ts';
export { CredentialCipher } from './credentials/cipher.ts';
export { CredentialStore } from './credentials/store.ts';
export { type DB, openDatabase } from './db/database.ts';
export { migrate } from './db/migrations.ts';
export { pgliteKysely } from './db/pglite-dialect.ts';
export type { Database } from './db/schema.ts';
export { codeAt, timeStep } from './factors/app-codes.ts';
export { PushStore } from './factors/push/store.ts';
export { JourneyStore } from './journeys/store.ts';
export { systemClock, TestClock } from './lib/clock.ts';
export { sha256 } from './lib/crypto.ts';
export { PasswordHasher } from './lib/passwords.ts';
export { Csrf } from './plugins/security.ts';
export { readDemoAccounts, seedDemoAccounts } from './seed.ts';
export { cookieNames } from './services/cookies.ts';
