import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { appDefaults, limits, type RecoveryDelivery, recoveryDeliveries } from '@gatehouse/contract';
import { z } from 'zod';
import type { CredentialKeys } from './credentials/cipher.ts';
import {
  credentialKeyWeakness,
  DEVELOPMENT_KEY_ID,
  developmentCredentialKey,
  parseCredentialKeys,
} from './credentials/keys.ts';
import type { OtpSettings } from './factors/otp/settings.ts';
import type { PushSettings } from './factors/push/settings.ts';
import {
  bool,
  ConfigError,
  DEVELOPMENT_SECRET,
  factorFolders,
  int,
  list,
  type SettingsSlice,
  secretWeakness,
  secureUrl,
} from './factors/settings-kit.ts';
import type { TokenSettings } from './factors/token/settings.ts';
import type { TotpSettings } from './factors/totp/settings.ts';
import { type OidcSettings, readOidcSettings } from './oidc/settings.ts';

export { ConfigError, secretWeakness };

/** RECOVERY_CHANNELS' names and the delivery option (portal spec §4) each allows. */
const recoveryChannelDelivery = { email: 'EMAIL', text: 'TEXT', voice: 'CALL', rep: 'REP' } as const;
const recoveryChannelNames = ['email', 'text', 'voice', 'rep'] as const;

/**
 * Every setting of the identity service, parsed once at start into a typed object. An invalid
 * setting stops the start with one line naming it (see ConfigError). docs/configuration.md
 * lists the same settings with their defaults.
 */
const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: int(0, 65535).default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
    DATA_DIR: z.string().min(1).default('.data'),
    // Database faults (docs/configuration.md, "Database faults").
    DB_POOL_MAX: int(1, 1000).default(10),
    DB_CONNECT_TIMEOUT_MS: int(100, 600_000).default(5000),
    DB_STATEMENT_TIMEOUT_MS: int(100, 3_600_000).default(10_000),
    DB_QUERY_TIMEOUT_MS: int(100, 3_600_000).default(15_000),
    DB_READY_TIMEOUT_MS: int(100, 600_000).default(2000),
    DB_PREPARED_STATEMENTS: z.enum(['on', 'off']).default('on'),
    PUBLIC_ORIGIN: z.string().url().optional(),
    ALLOWED_ORIGINS: list.default([]),
    CORS_ORIGINS: list.default([]),
    CONNECT_SRC: list.default([]),
    FRAME_ANCESTORS: list.default([]),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    COOKIE_SECURE: bool.optional(),
    COOKIE_SAMESITE: z.enum(['lax', 'strict', 'none']).default('lax'),
    COOKIE_HOST_PREFIX: bool.optional(),
    SESSION_IDLE_MINUTES: int(1, 24 * 60).default(limits.sessionIdleHours * 60),
    SESSION_ABSOLUTE_MINUTES: int(1, 7 * 24 * 60).default(limits.sessionAbsoluteHours * 60),
    LOGIN_FLOW_MINUTES: int(1, 120).default(30),
    LOGIN_LOCKOUT_FAILURES: int(1, 100).default(6),
    RATE_LIMIT_ACCOUNT_MAX: int(1, 10000).default(10),
    RATE_LIMIT_ACCOUNT_WINDOW_SECONDS: int(1, 86400).default(900),
    // An office, branch or call centre behind one address signs in many customers (decision 044):
    // one a second over the window; each account keeps its own limit and lockout.
    RATE_LIMIT_CLIENT_MAX: int(1, 100000).default(300),
    RATE_LIMIT_CLIENT_WINDOW_SECONDS: int(1, 86400).default(300),
    ARGON2_MEMORY_KIB: int(8192, 1048576).default(19456),
    ARGON2_ITERATIONS: int(1, 10).default(2),
    ARGON2_PARALLELISM: int(1, 16).default(1),
    ARGON2_THREADS: int(1, 256).optional(),
    ARGON2_NICE: int(0, 19).default(10),
    BODY_LIMIT_BYTES: int(1024, 1048576).default(16384),
    REMEMBER_MAX: int(1, 50).default(5),
    PROHIBITED_NETWORKS: list.default([]),
    CLIENT_LOG_RATE_MAX: int(1, 100000).default(30),
    // The device-risk step (widget spec §7, docs/decisions/045-device-risk-step.md): off by default.
    RISK_SCRIPT_URL: z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, 'must start with http:// or https://')
      .optional(),
    RISK_BEACON_URL: z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, 'must start with http:// or https://')
      .optional(),
    RISK_SECOND_FACTOR_SCORE: int(0, 100).default(70),
    RISK_BEACON_RATE_MAX: int(1, 100000).default(30),
    SUPPORT_EMAIL: z
      .string()
      .email('must be an e-mail address')
      .default('loginsupport@primeservices.example'),
    RECOVERY_FLOW_MINUTES: int(1, 120).default(30),
    // Per client address: sized for a branch or an office behind one address (decision 051).
    RECOVERY_IDENTIFY_CLIENT_MAX: int(1, 100000).default(60),
    RECOVERY_CHECK_CLIENT_MAX: int(1, 100000).default(60),
    RECOVERY_IDENTIFY_ACCOUNT_MAX: int(1, 10000).default(5),
    RECOVERY_IDENTIFY_WINDOW_SECONDS: int(1, 86400).default(900),
    // Which ways a password recovery may take (portal spec §4; docs/decisions/043-recovery-channels.md).
    RECOVERY_CHANNELS: list
      .pipe(
        z
          .array(z.enum(recoveryChannelNames))
          .min(1, `must name at least one of ${recoveryChannelNames.join(', ')}`),
      )
      .default(['email', 'text', 'voice', 'rep']),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
    SMTP_HOST: z.string().min(1).optional(),
    SMTP_PORT: int(1, 65535).optional(),
    SMTP_SECURE: bool.default(false),
    SMTP_USER: z.string().min(1).optional(),
    SMTP_PASS: z.string().min(1).optional(),
    MAIL_FROM: z.string().min(3).optional(),
    // The deployment's name in e-mails, texts and notices (issue 26: not always 'Prime Portal').
    PRODUCT_NAME: z.string().trim().min(1).max(64).default(appDefaults.portalAppName),
    CONTACT_WAIT_DAYS: int(0, limits.contactWaitMaxDays).default(limits.contactWaitDays),
    FACTOR_MAX_WRONG_TRIES: int(1, 100).default(limits.factorMaxWrongTries),
    FACTOR_MAX_SENDS: int(1, 100).default(limits.factorMaxSends),
    FACTOR_LOCKOUT_MINUTES: int(1, 24 * 60).default(limits.factorLockoutMinutes),
    TRUST_DEVICE_DAYS: int(0, 400).default(limits.trustDeviceDays),
    SMS_OUTAGE: bool.default(false),
    SMS_SENDER_NAMES: list.default(['PrimeSrv', 'Gatehouse']),
    SMS_WEBHOOK_URL: z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, 'must start with http:// or https://')
      .optional(),
    SMS_WEBHOOK_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    // Abuse limits (docs/decisions/033-abuse-limits.md): texts and calls, cumulative factor blocks.
    FACTOR_BLOCKS_BEFORE_HOLD: int(1, 100).default(3),
    FACTOR_HOLD_WINDOW_HOURS: int(1, 30 * 24).default(24),
    PHONE_DESTINATION_HOURLY_MAX: int(1, 10_000).default(5),
    PHONE_DESTINATION_DAILY_MAX: int(1, 10_000).default(10),
    PHONE_NEW_NUMBERS_DAILY_MAX: int(1, 10_000).default(5),
    PHONE_COUNTRY_DAILY_MAX: int(1, 10_000_000).default(1000),
    PHONE_COUNTRY_DAILY_LIMITS: list.default([]),
    PHONE_DAILY_MAX: int(1, 100_000_000).default(20_000),
    PHONE_REFUSED_TYPES: list.default([
      'PREMIUM_RATE',
      'SHARED_COST',
      'PERSONAL_NUMBER',
      'UAN',
      'PAGER',
      'VOICEMAIL',
    ]),
    PHONE_REFUSED_RANGES: list.default([
      '+1900',
      '+1976',
      '+239',
      '+679',
      '+870',
      '+881',
      '+882',
      '+883',
      '+979',
    ]),
    // The portal's security page (security/; docs/decisions/025-security-page-api.md).
    SECURITY_STEPUP_MINUTES: int(1, 24 * 60).default(10),
    // How long before the console's idle end and the security page's step-up end their warning
    // shows (WCAG 2.2.1: at least 20 s; docs/decisions/049-time-limit-warnings.md).
    TIME_LIMIT_WARNING_SECONDS: int(20, 3600).default(120),
    SECURITY_ENROLLMENT_MINUTES: int(1, 24 * 60).default(10),
    SECURITY_CONFIRM_MAX_TRIES: int(1, 100).default(5),
    SECURITY_RATE_MAX: int(1, 10_000).default(10),
    SECURITY_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
    // The credential lifecycle's caps per account (security/credential-policy.ts; decision 030).
    CREDENTIAL_MAX_PUSH_DEVICES: int(1, 1000).default(10),
    CREDENTIAL_MAX_CONTACTS: int(1, 1000).default(10),
    CREDENTIAL_MAX_APPS: int(1, 1000).default(5),
    SUPPORT_PHONE: z.string().min(3).max(40).default('1-800-555-0100'),
    // The representative console (apps/console; docs/decisions/028-representative-console.md).
    STAFF_IDLE_MINUTES: int(1, 24 * 60).default(15),
    STAFF_ABSOLUTE_MINUTES: int(1, 24 * 60).default(10 * 60),
    STAFF_LOCKOUT_FAILURES: int(1, 100).default(5),
    STAFF_LOCKOUT_MINUTES: int(1, 24 * 60).default(15),
    REP_CODE_MINUTES: int(1, 24 * 60).default(10),
    CONSOLE_LOOKUP_MAX: int(1, 100_000).default(60),
    CONSOLE_CODE_MAX: int(1, 100_000).default(20),
    CONSOLE_LIFT_MAX: int(1, 100_000).default(20),
    CONSOLE_RATE_WINDOW_MINUTES: int(1, 24 * 60).default(60),
    CONSOLE_ALERT_PERCENT: int(1, 100).default(75),
    // Staff like customers (issue 22; docs/decisions/031-staff-like-customers.md).
    STAFF_PASSWORD_MAX_TRIES: int(1, 1000).default(5),
    STAFF_PASSWORD_WINDOW_MINUTES: int(1, 24 * 60).default(15),
    CONSOLE_ORIGIN: z.string().optional(),
    CONSOLE_NETWORKS: list.default([]),
    SEED_DEMO: bool.optional(),
    DEV_COMPANIONS: bool.optional(),
    SERVE_APPS: bool.default(true),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: z.string().default('false'),
    CODE_CHECK_SESSION_MAX: int(1, 10000).default(10),
    CODE_CHECK_ACCOUNT_MAX: int(1, 10000).default(20),
    CODE_CHECK_WINDOW_SECONDS: int(1, 86400).default(900),
    RECOVERY_LOCK_MINUTES: int(1, 7 * 24 * 60).default(24 * 60),
    AUDIT_RETENTION_DAYS: int(1, 10 * 366).default(400),
    CLEANUP_INTERVAL_MINUTES: int(0, 24 * 60).default(15),
    // Credentials' secrets at rest (docs/configuration.md, "Credential keys"; decision 021).
    CREDENTIAL_KEYS: z.string().optional(),
    CREDENTIAL_KEY_ID: z.string().optional(),
    // The OpenID Provider (docs/oidc.md; oidc/settings.ts reads and checks them).
    OIDC_CLIENTS: z.string().optional(),
    OIDC_SIGNING_KEYS: z.string().optional(),
    OIDC_TOKEN_RATE_MAX: int(1, 100_000).default(60),
    OIDC_TOKEN_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  })
  .superRefine((v, ctx) => {
    if (v.NODE_ENV === 'production' && !v.SESSION_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message: 'is required in production mode (at least 32 random characters)',
      });
    }
    if (v.COOKIE_SAMESITE === 'none' && v.NODE_ENV !== 'production' && v.COOKIE_SECURE !== true) {
      ctx.addIssue({
        code: 'custom',
        path: ['COOKIE_SAMESITE'],
        message: 'none needs COOKIE_SECURE=true (browsers drop SameSite=None cookies without Secure)',
      });
    }
  });

export type Config = {
  env: 'development' | 'production' | 'test';
  production: boolean;
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  /** PostgreSQL pool size and the timeouts that turn a lost database into 503 (5003) answers. */
  database: {
    poolMax: number;
    connectTimeoutMs: number;
    statementTimeoutMs: number;
    queryTimeoutMs: number;
    readyTimeoutMs: number;
    /** Named prepared statements (decision 042); off behind a pooler that cannot keep them. */
    prepared: boolean;
  };
  publicOrigin: string;
  allowedOrigins: string[];
  /** Portal origins on other hosts that may call the API from a browser (CORS with credentials). */
  corsOrigins: string[];
  /** Further origins the served pages may connect to (CSP connect-src): the environments' services. */
  connectSrc: string[];
  frameAncestors: string[];
  sessionSecret: string;
  cookieSecure: boolean;
  cookieSameSite: 'lax' | 'strict' | 'none';
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  loginFlowMs: number;
  lockoutFailures: number;
  rateLimits: {
    account: { max: number; windowMs: number };
    client: { max: number; windowMs: number };
  };
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
  /** The argon2id worker pool: threads (default one per core) and their nice increment. */
  argon2Pool: { threads: number; nice: number };
  bodyLimit: number;
  /** Saved usernames per device (the oldest drops). */
  rememberMax: number;
  /** Client networks whose session login is refused as a prohibited location. */
  prohibitedNetworks: Network[];
  /** Client log requests per client address per minute. */
  clientLogRateMax: number;
  /**
   * The device-risk step (docs/decisions/045-device-risk-step.md): null when off (the default). The
   * provider's script and its real-time beacon (their origins join the pages' CSP script-src and
   * connect-src), the score from which a login journey owes a second factor even on a trusted
   * device, and the first-party beacon's requests per client per minute.
   */
  deviceRisk: {
    scriptUrl: string;
    beaconUrl: string;
    secondFactorScore: number;
    beaconRateMax: number;
  } | null;
  /** The login support address shown in the 1491 "contact {email}" messages. */
  supportEmail: string;
  /** How long audit rows are kept. */
  auditRetentionMs: number;
  /** How often expired journeys, codes, sessions and old audit rows are deleted (0: never). */
  cleanupIntervalMs: number;
  recovery: {
    /** How long each step of a recovery flow (identify, send, confirm) keeps it alive. */
    flowMs: number;
    /**
     * How long the recovery channel of an account stays locked after too many sends without entry
     * or too many wrong codes. The owner's sign-in is never locked by it.
     */
    lockMs: number;
    identify: { client: { max: number; windowMs: number }; account: { max: number; windowMs: number } };
    /** Recovery code checks per client address (per flow: codeCheck.session), per CODE_CHECK_WINDOW_SECONDS. */
    checkClient: { max: number; windowMs: number };
    /** The delivery options a recovery may take (RECOVERY_CHANNELS), in the spec's order. */
    deliveries: readonly RecoveryDelivery[];
  };
  /** One-time codes (factors/otp/settings.ts). */
  otp: OtpSettings;
  /** SMTP delivery; undefined: messages go to the development outbox (never in production). */
  smtp: SmtpSettings | undefined;
  mailFrom: string;
  /** The deployment's name in e-mails, texts and notices (PRODUCT_NAME). */
  productName: string;
  /** The one-time-code second factor (text, voice, e-mail), step-up and trusted devices. */
  factor: {
    maxWrongTries: number;
    maxSends: number;
    /** How long a channel stays refused after a limit, from its last try or send. */
    lockoutMs: number;
    /** A contact newer than this is shown but cannot be used. */
    contactWaitMs: number;
    /** How long a bound device skips the second factor; 0: devices are never trusted. */
    trustDeviceMs: number;
    /** Text sends answer 1224 with ruleData.carrierOutage (the code is still sent). */
    smsOutage: boolean;
    /** The applications' short names a code text may carry ({0} of the contract's smsTemplate). */
    smsSenderNames: string[];
  };
  /** Text and voice delivery: POST JSON {channel, to, text}; undefined: the development outbox. */
  smsWebhook: { url: string; token: string | undefined } | undefined;
  /** Push approval and the device app (factors/push/settings.ts; decision 022). */
  push: PushSettings;
  /** The authenticator app (factors/totp/settings.ts). */
  totp: TotpSettings;
  /** The token app (factors/token/settings.ts). */
  token: TokenSettings;
  /**
   * Every factor module's settings by its key (`factors/<key>/settings.ts`, found by walking the
   * folders): `otp`, `push`, `totp` and `token` are also above under their typed names.
   */
  factors: Record<string, unknown>;
  /**
   * Second-factor blocks counted per account and factor: `blocksBeforeHold` blocks within
   * `windowMs` hold the factor until a recovery or the console lifts it (decision 033).
   */
  factorHold: { blocksBeforeHold: number; windowMs: number };
  /**
   * Texts and calls (decision 033): per destination number an hour and a day, per country a day
   * (`countryDaily` overrides by region code), all of them a day; refused number types and ranges.
   */
  phone: {
    destinationHourly: number;
    destinationDaily: number;
    /** Codes to numbers being added, per account a day. */
    newNumbersDaily: number;
    countryDailyMax: number;
    countryDaily: Map<string, number>;
    dailyMax: number;
    refusedTypes: string[];
    refusedRanges: string[];
  };
  /**
   * The portal's security page: how recent a step-up must be, how long a pending authenticator app
   * or contact waits for its code, wrong codes before it ends, its calls per account and window.
   */
  security: {
    stepUpMs: number;
    /** The page's warning before the step-up ends (TIME_LIMIT_WARNING_SECONDS). */
    warningMs: number;
    enrollmentMs: number;
    confirmMaxTries: number;
    rate: { max: number; windowMs: number };
    /** The most push devices, phones and e-mail addresses, and authenticator and token apps an account holds. */
    caps: { pushDevices: number; contacts: number; apps: number };
  };
  /** The number security notices tell the customer to call ("If this wasn't you, call …"). */
  supportPhone: string;
  /**
   * The representative console: staff sessions' idle and absolute limits, failed sign-ins before a
   * staff lockout and its length, the temporary security code's life, and per-staff limits on
   * lookups, codes and lifts in a window, with an alert line in the log past alertPercent of a limit.
   */
  console: {
    idleMs: number;
    /** The console's warning before the idle end (TIME_LIMIT_WARNING_SECONDS). */
    warningMs: number;
    absoluteMs: number;
    lockoutFailures: number;
    lockoutMs: number;
    repCodeMs: number;
    lookups: { max: number; windowMs: number };
    codes: { max: number; windowMs: number };
    lifts: { max: number; windowMs: number };
    alertPercent: number;
    /**
     * Wrong staff passwords per client address and staff name in a window (reserved before the
     * compare; they never lock the member: only wrong authenticator codes after the right password do).
     */
    passwordTries: { max: number; windowMs: number };
    /** Where the console answers (console/gate.ts): its own origin, and/or these client networks. */
    access: ConsoleAccess;
  };
  seedDemo: boolean;
  devCompanions: boolean;
  serveApps: boolean;
  logLevel: string;
  /**
   * Which X-Forwarded-For hops to believe: false (none: the socket's address), a number of proxies
   * in front of the service, or the proxies' own addresses and networks. Never "every hop".
   */
  trustProxy: false | number | string[];
  /** HttpOnly cookies carry the `__Host-` prefix (Secure, Path=/, no Domain). */
  cookieHostPrefix: boolean;
  /** Code checks (every factor and recovery) per login transaction or session, and per account. */
  codeCheck: { session: { max: number; windowMs: number }; account: { max: number; windowMs: number } };
  /**
   * The keys credentials' secrets are encrypted under (AES-256-GCM), by id, and the id new secrets
   * are written with. Outside production mode the key derived from the session secret ("dev") is
   * always among them.
   */
  credentialKeys: CredentialKeys;
  /** The OpenID Provider: clients, signing keys, the token endpoint's limit (oidc/settings.ts). */
  oidc: OidcSettings;
};

export type SmtpSettings =
  | { url: string }
  | { host: string; port: number; secure: boolean; user: string | undefined; pass: string | undefined };

export type Network = { address: string; prefix: number; family: 'ipv4' | 'ipv6' };

/**
 * Where the representative console answers (CONSOLE_ORIGIN, CONSOLE_NETWORKS): `host` is the console
 * origin's host (with its port when not the default), `anyPort` when only the host name must match
 * (the development default, 127.0.0.1 on whatever port the service listens); `networks` the client
 * networks it answers to (empty: any). `customerHosts`: hosts the console never answers on.
 */
export type ConsoleAccess = {
  origin: string | undefined;
  host: string | undefined;
  anyPort: boolean;
  networks: Network[];
  customerHosts: string[];
};

/**
 * One network in CIDR form (`203.0.113.0/24`, `2001:db8::/32`; a bare address is a single host),
 * or undefined when the text is not one.
 */
export function parseNetwork(text: string): Network | undefined {
  const match = /^([^/%\s]+)(?:\/(\d{1,3}))?$/.exec(text);
  if (!match) return undefined;
  const version = isIP(match[1]!);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  const prefix = match[2] === undefined ? max : Number(match[2]);
  if (prefix > max) return undefined;
  return { address: match[1]!, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

type Parsed = z.infer<typeof schema>;

/** The core's settings (a factor's are in its slice), for docs/configuration.md's check. */
export const coreSettingNames: readonly string[] = Object.keys(schema.shape);

/** Production mode refuses every setting that would leave it unsafe, one clear line each. */
function productionChecks(v: Parsed, sliceValues: Record<string, unknown>) {
  const stop = (name: string, message: string): never => {
    throw new ConfigError(`Invalid setting ${name}: ${message}`);
  };
  const secret = v.SESSION_SECRET;
  if (secret !== undefined) {
    if (secret.includes(DEVELOPMENT_SECRET))
      stop('SESSION_SECRET', 'is the development value published in the source');
    const weakness = secretWeakness(secret);
    if (weakness) stop('SESSION_SECRET', weakness);
  }
  // The factors' own (OTP_PEPPER, PUSH_WEBHOOK_URL), each in its settings slice.
  for (const [key, slice] of factorSettings) slice.productionChecks?.(sliceValues[key] as never, stop);
  if (v.SEED_DEMO === true) {
    stop('SEED_DEMO', 'cannot be true in production mode (the demo passwords are published)');
  }
  if (v.COOKIE_SECURE === false) {
    stop('COOKIE_SECURE', 'cannot be false in production mode (session cookies must not travel over HTTP)');
  }
  if (v.SMS_WEBHOOK_URL && !secureUrl(v.SMS_WEBHOOK_URL)) {
    stop('SMS_WEBHOOK_URL', 'must be an https:// URL in production mode (http:// only to this machine)');
  }
  for (const name of ['ALLOWED_ORIGINS', 'CORS_ORIGINS', 'CONNECT_SRC'] as const) {
    const insecure = v[name].find((origin) => !secureUrl(origin));
    if (insecure) stop(name, `must list https:// origins in production mode (got "${insecure}")`);
  }
  // frame-ancestors '*' (or a bare scheme, or every host of one) lets any site frame the sign-in:
  // clickjacking of the password and the push approval (issue 22 finding 8).
  const anyFramer = v.FRAME_ANCESTORS.find((source) =>
    /^(\*|[a-z][a-z0-9+.-]*:(\/\/\*(:\d+|:\*)?\/?)?)$/i.test(source),
  );
  if (anyFramer) {
    stop(
      'FRAME_ANCESTORS',
      `cannot be "${anyFramer}" in production mode (it lets any site frame the sign-in; list the https:// origins that embed it)`,
    );
  }
  if (!v.DATABASE_URL) {
    stop('DATABASE_URL', 'is required in production mode (the embedded database is for one machine only)');
  }
  if (!v.CONSOLE_ORIGIN && v.CONSOLE_NETWORKS.length === 0) {
    stop(
      'CONSOLE_ORIGIN',
      'or CONSOLE_NETWORKS is required in production mode (the staff console on its own https:// origin, or only to the listed client networks)',
    );
  }
  if (v.CONSOLE_ORIGIN && /^https?:\/\//.test(v.CONSOLE_ORIGIN) && !secureUrl(v.CONSOLE_ORIGIN)) {
    stop('CONSOLE_ORIGIN', 'must be an https:// origin in production mode');
  }
  if (!v.PUBLIC_ORIGIN) {
    stop(
      'PUBLIC_ORIGIN',
      'is required in production mode (the https:// origin customers reach the service at)',
    );
  } else if (!secureUrl(v.PUBLIC_ORIGIN)) {
    stop('PUBLIC_ORIGIN', 'must be an https:// origin in production mode');
  }
}

/** A list of origins (scheme, host, port; no path): each is normalised, a bad one stops the start. */
/** RISK_SCRIPT_URL and RISK_BEACON_URL: both or neither; https:// in production mode. */
function deviceRiskSettings(v: Parsed, production: boolean): Config['deviceRisk'] {
  const { RISK_SCRIPT_URL: scriptUrl, RISK_BEACON_URL: beaconUrl } = v;
  if (!scriptUrl && !beaconUrl) return null;
  if (!scriptUrl || !beaconUrl) {
    throw new ConfigError(
      `Invalid setting ${scriptUrl ? 'RISK_BEACON_URL' : 'RISK_SCRIPT_URL'}: the device-risk step needs both RISK_SCRIPT_URL and RISK_BEACON_URL (or neither)`,
    );
  }
  for (const [name, url] of [
    ['RISK_SCRIPT_URL', scriptUrl],
    ['RISK_BEACON_URL', beaconUrl],
  ] as const) {
    if (production && !secureUrl(url)) {
      throw new ConfigError(`Invalid setting ${name}: must be an https:// URL in production mode`);
    }
  }
  return {
    scriptUrl: new URL(scriptUrl).href,
    beaconUrl: new URL(beaconUrl).href,
    secondFactorScore: v.RISK_SECOND_FACTOR_SCORE,
    beaconRateMax: v.RISK_BEACON_RATE_MAX,
  };
}

function origins(name: string, entries: string[]): string[] {
  return entries.map((entry) => {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {}
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== entry.replace(/\/$/, '')) {
      throw new ConfigError(
        `Invalid setting ${name} (got "${entry}"): each entry must be an origin such as https://portal.bank.example`,
      );
    }
    return url.origin;
  });
}

/**
 * TRUST_PROXY: `false`/`0` (no proxy), a number of proxies in front (1-10), or a comma-separated list
 * of the proxies' addresses or networks. `true` (believe every hop) is refused: the left-most
 * X-Forwarded-For is whatever the client wrote.
 */
function parseTrustProxy(text: string): false | number | string[] {
  const value = text.trim();
  if (value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops >= 1 && hops <= 10) return hops;
  } else if (value !== 'true') {
    const entries = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    // A proxy is an address or a network of proxies: nothing wider than a /8 (IPv4) or /32 (IPv6),
    // which would trust clients' own X-Forwarded-For again.
    const bad = entries.find((entry) => {
      const network = parseNetwork(entry);
      return !network || network.prefix < (network.family === 'ipv4' ? 8 : 32);
    });
    if (entries.length && !bad) return entries;
    throw new ConfigError(
      `Invalid setting TRUST_PROXY (got "${bad ?? value}"): each entry must be a proxy's IPv4 or IPv6 address or network in CIDR form, no wider than /8 (IPv4) or /32 (IPv6)`,
    );
  }
  throw new ConfigError(
    `Invalid setting TRUST_PROXY (got "${value}"): give the number of proxies in front of the service (1-10) or their addresses; trusting every X-Forwarded-For hop would let a client choose its own address`,
  );
}

/** The settings of `schema` in the environment (an empty value is unset), or ConfigError naming the first bad one. */
function parseSettings<S extends z.ZodType>(
  schema: S & { shape: object },
  env: Record<string, string | undefined>,
): z.output<S> {
  const relevant: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') relevant[key] = value;
  }
  const parsed = schema.safeParse(relevant);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'configuration');
    const shown =
      name in relevant && !/SECRET|DATABASE_URL|PEPPER|SMTP_URL|SMTP_PASS|TOKEN|WEBHOOK_URL|KEYS/.test(name)
        ? ` (got "${relevant[name]}")`
        : '';
    throw new ConfigError(`Invalid setting ${name}${shown}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * The factors' settings slices, by key: `factors/<key>/settings.ts` of every factor folder, read
 * once while this file loads (so loadConfig stays synchronous). A slice imports only zod and
 * factors/settings-kit.ts, never this file.
 */
export const factorSettings: ReadonlyMap<string, SettingsSlice> = new Map(
  await Promise.all(
    factorFolders('settings.ts').map(async ({ key, path }) => {
      const { settings } = (await import(pathToFileURL(path).href)) as { settings?: SettingsSlice };
      if (!settings) throw new Error(`${path} exports no settings`);
      return [key, settings] as const;
    }),
  ),
);

/** Parses the environment. Throws ConfigError with one line naming the first bad setting. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const v = parseSettings(schema, env);
  // Each factor's slice (factors/<key>/settings.ts), parsed as the core's settings are.
  const sliceValues: Record<string, unknown> = {};
  for (const [key, slice] of factorSettings) sliceValues[key] = parseSettings(slice.schema, env);
  const prohibitedNetworks: Network[] = [];
  for (const entry of v.PROHIBITED_NETWORKS) {
    const network = parseNetwork(entry);
    if (!network) {
      throw new ConfigError(
        `Invalid setting PROHIBITED_NETWORKS (got "${entry}"): each entry must be an IPv4 or IPv6 network in CIDR form, such as 203.0.113.0/24 or 2001:db8::/32`,
      );
    }
    prohibitedNetworks.push(network);
  }
  const production = v.NODE_ENV === 'production';
  const devCompanions = v.DEV_COMPANIONS ?? !production;
  if (production && devCompanions) {
    throw new ConfigError(
      'Invalid setting DEV_COMPANIONS: the development companions cannot run in production mode',
    );
  }
  if (production && !v.SMTP_URL && !v.SMTP_HOST) {
    throw new ConfigError(
      'Invalid setting SMTP_URL: e-mail delivery is required in production mode (set SMTP_URL, or SMTP_HOST with SMTP_PORT, SMTP_SECURE, SMTP_USER, SMTP_PASS)',
    );
  }
  if (production && !v.MAIL_FROM) {
    throw new ConfigError(
      'Invalid setting MAIL_FROM: is required in production mode (the sender of one-time code e-mails, such as "Prime Portal <no-reply@bank.example>")',
    );
  }
  if (production && !v.SMS_WEBHOOK_URL) {
    throw new ConfigError(
      'Invalid setting SMS_WEBHOOK_URL: text and voice delivery is required in production mode (an HTTPS endpoint that takes POST {channel, to, text}; set SMS_WEBHOOK_TOKEN too)',
    );
  }
  if (production && !v.SMS_WEBHOOK_TOKEN) {
    throw new ConfigError(
      'Invalid setting SMS_WEBHOOK_TOKEN: is required in production mode (sent as "Authorization: Bearer …" to SMS_WEBHOOK_URL)',
    );
  }
  if (production) productionChecks(v, sliceValues);
  const trustProxy = parseTrustProxy(v.TRUST_PROXY);
  const cookieSecure = v.COOKIE_SECURE ?? production;
  const cookieHostPrefix = v.COOKIE_HOST_PREFIX ?? production;
  if (cookieHostPrefix && !cookieSecure) {
    throw new ConfigError(
      'Invalid setting COOKIE_HOST_PREFIX: the __Host- prefix needs Secure cookies (set COOKIE_SECURE=true, or COOKIE_HOST_PREFIX=false)',
    );
  }
  const sessionSecret = v.SESSION_SECRET ?? DEVELOPMENT_SECRET;
  const credentialKeys = credentialKeySettings(v, production, sessionSecret);
  const factors: Record<string, unknown> = {};
  for (const [key, slice] of factorSettings) {
    factors[key] = slice.read(sliceValues[key] as never, { production, sessionSecret });
  }
  const window = (max: number, seconds: number) => ({ max, windowMs: seconds * 1000 });
  const publicOrigin = new URL(v.PUBLIC_ORIGIN ?? 'http://localhost:8080').origin;
  return {
    env: v.NODE_ENV,
    production,
    port: v.PORT,
    host: v.HOST,
    databaseUrl: v.DATABASE_URL,
    dataDir: v.DATA_DIR,
    database: {
      poolMax: v.DB_POOL_MAX,
      connectTimeoutMs: v.DB_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: v.DB_STATEMENT_TIMEOUT_MS,
      queryTimeoutMs: v.DB_QUERY_TIMEOUT_MS,
      readyTimeoutMs: v.DB_READY_TIMEOUT_MS,
      prepared: v.DB_PREPARED_STATEMENTS === 'on',
    },
    publicOrigin,
    allowedOrigins: v.ALLOWED_ORIGINS,
    corsOrigins: origins('CORS_ORIGINS', v.CORS_ORIGINS),
    connectSrc: origins('CONNECT_SRC', v.CONNECT_SRC),
    frameAncestors: v.FRAME_ANCESTORS,
    sessionSecret,
    cookieSecure,
    cookieSameSite: v.COOKIE_SAMESITE,
    sessionIdleMs: v.SESSION_IDLE_MINUTES * 60_000,
    sessionAbsoluteMs: v.SESSION_ABSOLUTE_MINUTES * 60_000,
    loginFlowMs: v.LOGIN_FLOW_MINUTES * 60_000,
    lockoutFailures: v.LOGIN_LOCKOUT_FAILURES,
    rateLimits: {
      account: { max: v.RATE_LIMIT_ACCOUNT_MAX, windowMs: v.RATE_LIMIT_ACCOUNT_WINDOW_SECONDS * 1000 },
      client: { max: v.RATE_LIMIT_CLIENT_MAX, windowMs: v.RATE_LIMIT_CLIENT_WINDOW_SECONDS * 1000 },
    },
    argon2: {
      memoryCost: v.ARGON2_MEMORY_KIB,
      timeCost: v.ARGON2_ITERATIONS,
      parallelism: v.ARGON2_PARALLELISM,
    },
    argon2Pool: { threads: v.ARGON2_THREADS ?? availableParallelism(), nice: v.ARGON2_NICE },
    bodyLimit: v.BODY_LIMIT_BYTES,
    rememberMax: v.REMEMBER_MAX,
    prohibitedNetworks,
    clientLogRateMax: v.CLIENT_LOG_RATE_MAX,
    deviceRisk: deviceRiskSettings(v, production),
    supportEmail: v.SUPPORT_EMAIL,
    auditRetentionMs: v.AUDIT_RETENTION_DAYS * 24 * 3600_000,
    cleanupIntervalMs: v.CLEANUP_INTERVAL_MINUTES * 60_000,
    recovery: {
      flowMs: v.RECOVERY_FLOW_MINUTES * 60_000,
      lockMs: v.RECOVERY_LOCK_MINUTES * 60_000,
      deliveries: recoveryDeliveries.filter((d) =>
        v.RECOVERY_CHANNELS.some((name) => recoveryChannelDelivery[name] === d),
      ),
      identify: {
        client: window(v.RECOVERY_IDENTIFY_CLIENT_MAX, v.RECOVERY_IDENTIFY_WINDOW_SECONDS),
        account: window(v.RECOVERY_IDENTIFY_ACCOUNT_MAX, v.RECOVERY_IDENTIFY_WINDOW_SECONDS),
      },
      checkClient: window(v.RECOVERY_CHECK_CLIENT_MAX, v.CODE_CHECK_WINDOW_SECONDS),
    },
    otp: factors.otp as OtpSettings,
    smtp: v.SMTP_URL
      ? { url: v.SMTP_URL }
      : v.SMTP_HOST
        ? {
            host: v.SMTP_HOST,
            port: v.SMTP_PORT ?? (v.SMTP_SECURE ? 465 : 587),
            secure: v.SMTP_SECURE,
            user: v.SMTP_USER,
            pass: v.SMTP_PASS,
          }
        : undefined,
    mailFrom: v.MAIL_FROM ?? `${v.PRODUCT_NAME} <no-reply@localhost>`,
    productName: v.PRODUCT_NAME,
    factor: {
      maxWrongTries: v.FACTOR_MAX_WRONG_TRIES,
      maxSends: v.FACTOR_MAX_SENDS,
      lockoutMs: v.FACTOR_LOCKOUT_MINUTES * 60_000,
      contactWaitMs: v.CONTACT_WAIT_DAYS * 24 * 3_600_000,
      trustDeviceMs: v.TRUST_DEVICE_DAYS * 24 * 3_600_000,
      smsOutage: v.SMS_OUTAGE,
      smsSenderNames: v.SMS_SENDER_NAMES,
    },
    smsWebhook: v.SMS_WEBHOOK_URL ? { url: v.SMS_WEBHOOK_URL, token: v.SMS_WEBHOOK_TOKEN } : undefined,
    push: factors.push as PushSettings,
    totp: factors.totp as TotpSettings,
    token: factors.token as TokenSettings,
    factors,
    factorHold: {
      blocksBeforeHold: v.FACTOR_BLOCKS_BEFORE_HOLD,
      windowMs: v.FACTOR_HOLD_WINDOW_HOURS * 3_600_000,
    },
    phone: phoneSettings(v),
    security: {
      stepUpMs: v.SECURITY_STEPUP_MINUTES * 60_000,
      warningMs: v.TIME_LIMIT_WARNING_SECONDS * 1000,
      enrollmentMs: v.SECURITY_ENROLLMENT_MINUTES * 60_000,
      confirmMaxTries: v.SECURITY_CONFIRM_MAX_TRIES,
      rate: window(v.SECURITY_RATE_MAX, v.SECURITY_RATE_WINDOW_SECONDS),
      caps: {
        pushDevices: v.CREDENTIAL_MAX_PUSH_DEVICES,
        contacts: v.CREDENTIAL_MAX_CONTACTS,
        apps: v.CREDENTIAL_MAX_APPS,
      },
    },
    supportPhone: v.SUPPORT_PHONE,
    console: {
      idleMs: v.STAFF_IDLE_MINUTES * 60_000,
      warningMs: v.TIME_LIMIT_WARNING_SECONDS * 1000,
      absoluteMs: v.STAFF_ABSOLUTE_MINUTES * 60_000,
      lockoutFailures: v.STAFF_LOCKOUT_FAILURES,
      lockoutMs: v.STAFF_LOCKOUT_MINUTES * 60_000,
      repCodeMs: v.REP_CODE_MINUTES * 60_000,
      lookups: window(v.CONSOLE_LOOKUP_MAX, v.CONSOLE_RATE_WINDOW_MINUTES * 60),
      codes: window(v.CONSOLE_CODE_MAX, v.CONSOLE_RATE_WINDOW_MINUTES * 60),
      lifts: window(v.CONSOLE_LIFT_MAX, v.CONSOLE_RATE_WINDOW_MINUTES * 60),
      alertPercent: v.CONSOLE_ALERT_PERCENT,
      passwordTries: window(v.STAFF_PASSWORD_MAX_TRIES, v.STAFF_PASSWORD_WINDOW_MINUTES * 60),
      access: consoleAccess(v, production),
    },
    seedDemo: v.SEED_DEMO ?? !production,
    devCompanions,
    serveApps: v.SERVE_APPS,
    logLevel: v.LOG_LEVEL,
    trustProxy,
    cookieHostPrefix,
    codeCheck: {
      session: window(v.CODE_CHECK_SESSION_MAX, v.CODE_CHECK_WINDOW_SECONDS),
      account: window(v.CODE_CHECK_ACCOUNT_MAX, v.CODE_CHECK_WINDOW_SECONDS),
    },
    credentialKeys,
    oidc: readOidcSettings(
      {
        OIDC_CLIENTS: v.OIDC_CLIENTS,
        OIDC_SIGNING_KEYS: v.OIDC_SIGNING_KEYS,
        OIDC_TOKEN_RATE_MAX: String(v.OIDC_TOKEN_RATE_MAX),
        OIDC_TOKEN_RATE_WINDOW_SECONDS: String(v.OIDC_TOKEN_RATE_WINDOW_SECONDS),
      },
      { production, publicOrigin, seedDemo: v.SEED_DEMO ?? !production },
    ),
  };
}

/** Number types libphonenumber-js names (getType), for PHONE_REFUSED_TYPES. */
const PHONE_TYPES = [
  'PREMIUM_RATE',
  'SHARED_COST',
  'PERSONAL_NUMBER',
  'UAN',
  'PAGER',
  'VOICEMAIL',
  'VOIP',
  'TOLL_FREE',
  'FIXED_LINE',
  'MOBILE',
  'FIXED_LINE_OR_MOBILE',
];

/** The PHONE_* settings: each refused type known, each range `+digits` or a region code, each limit `XX:n`. */
function phoneSettings(v: Parsed): Config['phone'] {
  const stop = (name: string, entry: string, message: string): never => {
    throw new ConfigError(`Invalid setting ${name} (got "${entry}"): ${message}`);
  };
  const refusedTypes = v.PHONE_REFUSED_TYPES.map((t) => t.toUpperCase());
  for (const t of refusedTypes) {
    if (!PHONE_TYPES.includes(t))
      stop('PHONE_REFUSED_TYPES', t, `each entry must be one of ${PHONE_TYPES.join(', ')}`);
  }
  const refusedRanges = v.PHONE_REFUSED_RANGES.map((r) => r.replace(/[\s-]/g, '').toUpperCase());
  for (const r of refusedRanges) {
    if (!/^\+\d{1,14}$/.test(r) && !/^[A-Z]{2}$/.test(r)) {
      stop(
        'PHONE_REFUSED_RANGES',
        r,
        'each entry must be a prefix in E.164 form (+1900) or a region code (ST)',
      );
    }
  }
  const countryDaily = new Map<string, number>();
  for (const entry of v.PHONE_COUNTRY_DAILY_LIMITS) {
    const match = /^([A-Za-z]{2}):(\d{1,9})$/.exec(entry);
    if (!match) stop('PHONE_COUNTRY_DAILY_LIMITS', entry, 'each entry must be REGION:MAX, such as US:50000');
    countryDaily.set(match![1]!.toUpperCase(), Number(match![2]));
  }
  return {
    destinationHourly: v.PHONE_DESTINATION_HOURLY_MAX,
    destinationDaily: v.PHONE_DESTINATION_DAILY_MAX,
    newNumbersDaily: v.PHONE_NEW_NUMBERS_DAILY_MAX,
    countryDailyMax: v.PHONE_COUNTRY_DAILY_MAX,
    countryDaily,
    dailyMax: v.PHONE_DAILY_MAX,
    refusedTypes,
    refusedRanges,
  };
}

/**
 * CONSOLE_ORIGIN and CONSOLE_NETWORKS (console/gate.ts). The console origin must differ from every
 * customer origin (PUBLIC_ORIGIN, ALLOWED_ORIGINS, CORS_ORIGINS): same-origin scripts read each
 * other's answers, so a console on a customer origin would hand its CSRF token to any script there.
 * Without either setting outside production mode, the console answers on the host 127.0.0.1 (any
 * port), or on localhost when PUBLIC_ORIGIN is itself on 127.0.0.1.
 */
function consoleAccess(v: Parsed, production: boolean): ConsoleAccess {
  const networks: Network[] = [];
  for (const entry of v.CONSOLE_NETWORKS) {
    const network = parseNetwork(entry);
    if (!network) {
      throw new ConfigError(
        `Invalid setting CONSOLE_NETWORKS (got "${entry}"): each entry must be an IPv4 or IPv6 network in CIDR form, such as 10.20.0.0/16 or 2001:db8::/48`,
      );
    }
    networks.push(network);
  }
  const hostOf = (origin: string) => new URL(origin).host.toLowerCase();
  const publicOrigin = v.PUBLIC_ORIGIN ?? 'http://localhost:8080';
  const originOf = (text: string) => {
    try {
      return new URL(text).origin;
    } catch {
      return undefined;
    }
  };
  const customerOrigins = [publicOrigin, ...v.ALLOWED_ORIGINS, ...v.CORS_ORIGINS]
    .map(originOf)
    .filter((o): o is string => o !== undefined && o !== 'null');
  const customerHosts = [...new Set(customerOrigins.map(hostOf))];
  if (v.CONSOLE_ORIGIN) {
    const [origin] = origins('CONSOLE_ORIGIN', [v.CONSOLE_ORIGIN]);
    if (customerOrigins.includes(origin!) || customerHosts.includes(hostOf(origin!))) {
      throw new ConfigError(
        `Invalid setting CONSOLE_ORIGIN (got "${v.CONSOLE_ORIGIN}"): must not be a customer origin (PUBLIC_ORIGIN, ALLOWED_ORIGINS, CORS_ORIGINS); the console needs an origin of its own`,
      );
    }
    return { origin, host: hostOf(origin!), anyPort: false, networks, customerHosts };
  }
  if (networks.length || production) {
    return { origin: undefined, host: undefined, anyPort: false, networks, customerHosts };
  }
  const name = new URL(publicOrigin).hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1';
  const port = v.PORT === 0 ? '' : `:${v.PORT}`;
  return { origin: `http://${name}${port}`, host: name, anyPort: true, networks, customerHosts };
}

/**
 * CREDENTIAL_KEYS and CREDENTIAL_KEY_ID. Production mode needs them and refuses a weak key or the
 * development one; elsewhere the key derived from the session secret (id "dev") is the default and
 * stays readable when keys are configured, so a development database can be rotated onto them.
 * Messages name a key by its id, never its value.
 */
function credentialKeySettings(v: Parsed, production: boolean, sessionSecret: string): CredentialKeys {
  const stop = (name: string, message: string): never => {
    throw new ConfigError(`Invalid setting ${name}: ${message}`);
  };
  const development = developmentCredentialKey(sessionSecret);
  if (!v.CREDENTIAL_KEYS) {
    if (production) {
      stop(
        'CREDENTIAL_KEYS',
        'is required in production mode (id:base64 of 32 random bytes, such as k1:$(openssl rand -base64 32))',
      );
    }
    if (v.CREDENTIAL_KEY_ID !== undefined && v.CREDENTIAL_KEY_ID !== DEVELOPMENT_KEY_ID) {
      stop(
        'CREDENTIAL_KEY_ID',
        `(got "${v.CREDENTIAL_KEY_ID}") names no key: CREDENTIAL_KEYS is not set, so the only key is the development key "${DEVELOPMENT_KEY_ID}"`,
      );
    }
    return { current: DEVELOPMENT_KEY_ID, keys: new Map([[DEVELOPMENT_KEY_ID, development]]) };
  }
  let keys = new Map<string, Buffer>();
  try {
    keys = parseCredentialKeys(v.CREDENTIAL_KEYS);
  } catch (error) {
    stop('CREDENTIAL_KEYS', (error as Error).message);
  }
  if (production) {
    const published = developmentCredentialKey(DEVELOPMENT_SECRET);
    for (const [id, key] of keys) {
      if (key.equals(published))
        stop('CREDENTIAL_KEYS', `key ${id} is the development key published in the source`);
      const weakness = credentialKeyWeakness(key);
      if (weakness) stop('CREDENTIAL_KEYS', `key ${id} ${weakness}`);
    }
  }
  const only = keys.size === 1 ? [...keys.keys()][0] : undefined;
  const current =
    v.CREDENTIAL_KEY_ID ??
    only ??
    stop(
      'CREDENTIAL_KEY_ID',
      'is required when CREDENTIAL_KEYS lists several keys (the id new secrets are written under)',
    );
  if (!keys.has(current)) stop('CREDENTIAL_KEY_ID', `(got "${current}") names no key of CREDENTIAL_KEYS`);
  if (!production && !keys.has(DEVELOPMENT_KEY_ID)) keys.set(DEVELOPMENT_KEY_ID, development);
  return { current, keys };
}
