import type { ColumnType, Generated, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string, string>;
/** A timestamp the database fills by default. */
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface AccountsTable {
  id: Generated<string>;
  username: string;
  username_key: string;
  display_name: string;
  email: string | null;
  password_hash: string;
  password_changed_at: Timestamp;
  /** active | blocked | locked | disabled */
  status: string;
  /** ok | expired | temporary */
  password_state: string;
  require_username_update: boolean;
  maintenance: boolean;
  second_factor: boolean;
  prohibited: boolean;
  failed_logins: number;
  tags: Json<string[]>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  /** A date column: read it as `birth_date::text` (YYYY-MM-DD), the drivers differ on dates. */
  birth_date: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** SSN, tax id or G number, for the password policy (1473). */
  tax_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** CREATE when the last password set replaced a temporary one (portal spec §4). */
  password_enrollment_state: ColumnType<string | null, string | null | undefined, string | null>;
  /** The customer's language for e-mails, texts and calls: en | es (migration 012). */
  language: ColumnType<string, string | undefined, string>;
  /** The lock came from wrong passwords: the owner's known device lifts it (migration 027). */
  locked_by_failures: ColumnType<boolean, boolean | undefined, boolean>;
  /** The lock came from a push reported as fraud: the sign-in says so (migration 033). */
  locked_by_fraud: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface PasswordHistoryTable {
  id: Generated<string>;
  account_id: string;
  password_hash: string;
  created_at: Timestamp;
}

/**
 * A credential of an account (decision 021): a phone, an e-mail address, an authenticator app
 * (TOTP), a token (VIP-style) or a push device. The public part is what may be shown or matched
 * (masked when shown); the secret part is AES-256-GCM ciphertext under the key `secret_key_id`
 * (credentials/cipher.ts), null for kinds without one (phone, e-mail, push).
 */
export interface CredentialsTable {
  id: string;
  account_id: string;
  /** phone | email | totp | token | push */
  kind: string;
  name: string;
  /** phone: national number; email: address; token: credential id; push: public key (JWK). */
  public_part: string | null;
  /** version | IV | ciphertext | tag; never the secret itself. */
  secret: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  secret_key_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Kind-specific: phone { countryCode, voice }, token { drift }, push { algorithm, ... }. */
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  /** When it was added: a phone or address is usable CONTACT_WAIT_DAYS later (widget spec §5). */
  created_at: Timestamp;
  last_used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/**
 * A signed-in session. The login transaction before it is a journey (journeys table); a session
 * exists only once sign-in completed, and the factors that proved it are in session_factors.
 */
export interface SessionsTable {
  /** SHA-256 of the session token; the token itself is never stored. */
  id: string;
  account_id: string;
  context: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  idle_expires_at: Timestamp;
  absolute_expires_at: Timestamp;
  ended_at: Timestamp | null;
  end_reason: string | null;
  client_ip: string | null;
  user_agent: string | null;
  /** What the security page names the session by (never its token or hash); kept by a rotation. */
  public_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A factor that proved a session: the password, a second factor, a trusted device; when and in which journey. */
export interface SessionFactorsTable {
  id: Generated<string>;
  session_id: string;
  /** password | OTP-SMS | OTP-VOICE | OTP-EMAIL | OTP-REP | PUSH | TOTPSVIP | TOTPAUTHN | TRUSTED-DEVICE */
  kind: string;
  /** 1: knowledge (the password); 2: a second factor or a device bound after one. */
  level: number;
  /** login | stepup */
  journey_kind: string;
  journey_id: string | null;
  verified_at: Timestamp;
  /** The factor's module says its proof is bound to the origin (a passkey); default false. */
  phishing_resistant: Generated<boolean>;
}

/**
 * A journey (Ory Kratos's flows): a login transaction, a step-up, a recovery, a push transaction.
 * Any instance continues it; its state changes, expiry and single use are conditional UPDATEs.
 */
/** The kinds of journey (a CHECK holds `journeys.kind` to these: migration 029). */
export type JourneyKind = 'login' | 'stepup' | 'recovery';
/** Every state a journey of some kind may be in (per kind: JourneysTable.state; migration 029's CHECK). */
export type JourneyState =
  | 'password'
  | 'factor'
  | 'identified'
  | 'code_sent'
  | 'confirmed'
  | 'completed'
  | 'consumed'
  | 'failed'
  | 'ended'
  | 'expired';

export interface JourneysTable {
  id: Generated<string>;
  kind: JourneyKind;
  /** login: password | factor | completed | failed | ended; stepup: factor | completed | ended;
   * recovery: identified | code_sent | confirmed | consumed | ended; every kind: expired (a CHECK
   * holds each kind to its states: migration 029). */
  state: JourneyState;
  /** The browser binding: SHA-256 of the cookie that carries the journey (login: ET; recovery: GH_RECOVERY). */
  token_hash: string | null;
  /** Step-up: the signed-in session it proves again (its id). */
  session_id: string | null;
  /** null: a recovery started for an unknown username (it goes no further). */
  account_id: string | null;
  /** The factors passed so far: [{ kind, level, at }]. */
  factors: ColumnType<PassedFactor[], string | undefined, string>;
  /** Kind-specific: the host context (SESSION_CTX), why it ended. Never a count: tries are journey_tries. */
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  expires_at: Timestamp;
  completed_at: Timestamp | null;
  client_ip: string | null;
  user_agent: string | null;
}

/**
 * A journey's count of tries under a counter (migration 028): e.g. the token's wrong codes
 * ('token-wrong') and failed resyncs ('token-sync-wrong'). Written only by JourneyStore (one
 * conditional upsert per try); the rows go with their journey.
 */
export interface JourneyTriesTable {
  journey_id: string;
  counter: string;
  /** Never below 0 (a CHECK: migration 029). */
  tries: number;
}

/** A factor a journey proved: `phishingResistant` from its module's assurance (absent: false). */
export type PassedFactor = { kind: string; level: number; at: string; phishingResistant?: boolean };

/** A security event (never a secret): who, what, in which journey, from where, with what outcome. */
export interface AuditEventsTable {
  id: Generated<string>;
  at: Timestamp;
  event: string;
  outcome: string;
  account_id: string | null;
  journey_id: string | null;
  client_ip: string | null;
  request_id: string | null;
  detail: ColumnType<Record<string, unknown>, string | undefined, string>;
  /** The browser's User-Agent (cut at 300 characters), for the security page's activity. */
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  /** A console action: the staff member who acted (console/migrations/021). */
  staff_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  window_start: Timestamp;
  window_ms: number;
}

export interface OutboxTable {
  id: Generated<string>;
  channel: string;
  recipient: string;
  text: string;
  code: string | null;
  sent_at: Timestamp;
}

/** A username saved on a device (remember username); keyed by the device cookie's hash. */
export interface RememberedUsernamesTable {
  id: Generated<string>;
  /** SHA-256 of the GH_DEVICE cookie; the cookie itself is never stored. */
  device_key: string;
  account_id: string;
  created_at: Timestamp;
  last_used_at: Timestamp;
}

/** A one-time code of any channel; only its HMAC is stored. */
export interface OtpCodesTable {
  id: Generated<string>;
  account_id: string;
  /** email | sms | voice */
  channel: string;
  recipient: string;
  code_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  /** factor (a second factor, login or step-up) | recovery */
  purpose: string;
  /** The journey the code was sent for: only that journey may use it. */
  journey_id: string | null;
}

export interface OtpCountersTable {
  account_id: string;
  channel: string;
  wrong_tries: Generated<number>;
  unentered_sends: Generated<number>;
  updated_at: Timestamp;
  /** Recovery ('email'): the channel is locked until then (too many sends or wrong codes). */
  locked_until: Timestamp | null;
}

/**
 * Blocks of a second factor per account (factors/holds.ts, decision 033): counted in a window; the
 * block that reaches the limit holds the factor (held_at) until a recovery or the console lifts it.
 */
export interface FactorHoldsTable {
  account_id: string;
  /** The factor's counter name: 'totp', 'token', 'sms', 'voice', 'email'. */
  factor: string;
  blocks: number;
  window_start: Timestamp;
  held_at: Timestamp | null;
}

/** A browser the account completed a sign-in on (SHA-256 of GH_DEVICE; migration 027). */
export interface KnownDevicesTable {
  account_id: string;
  device_key: string;
  last_sign_in_at: Timestamp;
}

/** Wrong passwords per username and client since that client's last right one (migration 027). */
export interface LoginFailuresTable {
  /** The username as typed, normalised (accounts.username_key), whether an account has it or not. */
  username_key: string;
  /** `device:<GH_DEVICE hash>` for a known device, else `address:<client address or IPv6 /64>`. */
  client: string;
  failures: number;
  updated_at: Timestamp;
}

/** A device bound to an account: it skips the second factor at sign-in until expires_at. */
export interface TrustedDevicesTable {
  id: Generated<string>;
  account_id: string;
  /** SHA-256 of the GH_DEVICE cookie. */
  device_key: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** The browser as it bound (security page): User-Agent and address; its last sign-in on it. */
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  client_ip: ColumnType<string | null, string | null | undefined, string | null>;
  last_used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/**
 * A pending addition of the security page (security/): an authenticator app waiting for its first
 * code, or a phone or e-mail address waiting for the code sent to it.
 */
export interface SecurityConfirmationsTable {
  id: string;
  account_id: string;
  /** totp | phone | email */
  kind: string;
  value: string | null;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  secret: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  secret_key_id: ColumnType<string | null, string | null | undefined, string | null>;
  code_hash: ColumnType<string | null, string | null | undefined, string | null>;
  wrong_tries: Generated<number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  completed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** confirmed | exhausted */
  outcome: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A push sent to a device (factors/push; decision 022). */
export interface PushTransactionsTable {
  id: string;
  journey_id: string;
  account_id: string;
  credential_id: string;
  description: string;
  /**
   * What the device shows, all of it derived by the server (decision 032): browserName and osName
   * parsed from the send's User-Agent, time, host, journey (LOGIN | STEPUP, from the journey row).
   */
  content: ColumnType<Record<string, string>, string, string>;
  /** PENDING | APPROVED | DECLINED | FRAUD | WRONG_NUMBER | EXPIRED */
  status: string;
  /** Number matching: the 2-digit number the sign-in screen shows (CSPRNG), typed on the device. */
  number: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  answered_at: Timestamp | null;
  answer_key: string | null;
  completed_at: Timestamp | null;
}

/** A staff member of the representative console (console/migrations/020). */
export interface StaffTable {
  id: Generated<string>;
  name: string;
  /** representative | supervisor */
  role: string;
  password_hash: string;
  totp_secret: Uint8Array;
  totp_key_id: string;
  totp_last_step: ColumnType<string | number | null, number | null | undefined, number | null>;
  customer_username_key: string | null;
  failed_sign_ins: Generated<number>;
  locked_until: Timestamp | null;
  /** active | disabled */
  status: Generated<string>;
  created_at: Timestamp;
}

export interface StaffSessionsTable {
  id: string;
  staff_id: string;
  /** factor | active */
  stage: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  idle_expires_at: Timestamp;
  absolute_expires_at: Timestamp;
  ended_at: Timestamp | null;
  end_reason: string | null;
  client_ip: string | null;
}

/** A temporary security code a representative issued (only its HMAC). */
export interface RepCodesTable {
  id: Generated<string>;
  account_id: string;
  staff_id: string | null;
  code_hash: string;
  /** factor (the sign-in's rep page) | recovery (the portal's recovery, step 6): migration 032. */
  purpose: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

/** oidc-provider's models (oidc/adapter.ts; migration 040): one row per model and id. */
export interface OidcPayloadsTable {
  model: string;
  id: string;
  payload: ColumnType<unknown, string, string>;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: ColumnType<Date | null, Date | null, Date | null>;
  consumed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** The development signing key of the OpenID Provider (production: OIDC_SIGNING_KEYS). */
export interface OidcSigningKeysTable {
  kid: string;
  jwk: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
}

export interface Database {
  staff: StaffTable;
  staff_sessions: StaffSessionsTable;
  rep_codes: RepCodesTable;
  accounts: AccountsTable;
  password_history: PasswordHistoryTable;
  credentials: CredentialsTable;
  sessions: SessionsTable;
  session_factors: SessionFactorsTable;
  journeys: JourneysTable;
  journey_tries: JourneyTriesTable;
  audit_events: AuditEventsTable;
  rate_limits: RateLimitsTable;
  outbox: OutboxTable;
  remembered_usernames: RememberedUsernamesTable;
  otp_codes: OtpCodesTable;
  otp_counters: OtpCountersTable;
  factor_holds: FactorHoldsTable;
  trusted_devices: TrustedDevicesTable;
  known_devices: KnownDevicesTable;
  login_failures: LoginFailuresTable;
  push_transactions: PushTransactionsTable;
  security_confirmations: SecurityConfirmationsTable;
  oidc_payloads: OidcPayloadsTable;
  oidc_signing_keys: OidcSigningKeysTable;
}

export type Account = Selectable<AccountsTable>;
export type Session = Selectable<SessionsTable>;
export type Journey = Selectable<JourneysTable>;
export type CredentialRow = Selectable<CredentialsTable>;
export type PushTransaction = Selectable<PushTransactionsTable>;
export type Staff = Selectable<StaffTable>;
export type StaffSession = Selectable<StaffSessionsTable>;

/**
 * A phone or e-mail credential as the contact helpers give it (credentials/contacts.ts): the shape
 * the contacts table had, `added_at` being the credential's creation.
 */
export type Contact = {
  id: string;
  account_id: string;
  /** phone | email */
  kind: string;
  value: string;
  country_code: string | null;
  voice: boolean;
  added_at: Date;
};
