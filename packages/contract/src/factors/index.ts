/**
 * The factor contract files: one line per factor, `export * as <key> from './<key>.ts';`. Nothing
 * else in the contract names a factor: factor-contracts.ts composes what each file exports (the names
 * are listed there, `FactorContract`) into the authenticator types, the outcome tables, their docs
 * and the server's texts. Each file is also importable on its own as `@gatehouse/contract/factors/<key>`.
 */
// The passkey's parts without its schemas (passkey-calls.ts), so no login route carries zod for it.
export * as passkey from './passkey-calls.ts';
