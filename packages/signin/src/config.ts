import { type AuthenticatorItem, appDefaults } from '@gatehouse/contract/client';

export const journeys = ['LOGIN', 'STEPUP'] as const;
export type Journey = (typeof journeys)[number];

export type FinishResult = {
  journey: Journey;
  code: number;
  message: string;
  data: unknown;
  context: string | undefined;
};

export type WidgetEvent = { type: string; detail?: Record<string, unknown> };

/**
 * The widget's configuration (widget spec §3): what the host passes to <SignIn config> or
 * mount(element, config). docs/embedding.md describes every field.
 */
export type SignInConfig = {
  appId: string;
  appName: string;
  /** Endpoint base of the identity service; '' means the page's own origin. */
  endpoint?: string;
  /** Where 'Forgot username?' leads. */
  identityEndpoint?: string;
  resetUrl?: string;
  preResetUrl?: string;
  journey?: Journey;
  /**
   * 'changeUsername': a signed-in customer changes their username (widget spec §1 'can create or
   * change a username'): the widget opens on the change-username screen, with the journey's Cancel
   * (use 'STEPUP': the host's onCancel), and its confirmation's Continue calls onFinish with
   * `data: { username }`. 'ssoError': the widget opens on its /ssoerror screen (a host's single
   * sign-on that failed, such as an OpenID interaction that expired), whose action goes to login.
   * Unset: the journey's own start (docs/embedding.md).
   */
  start?: 'changeUsername' | 'ssoError';
  repPhone?: string;
  businessSMSText?: string;
  /**
   * The name of the provider's mobile app that approves pushes ('We'll send a notification to the
   * {0} app…'). Unset: businessSMSText, else appName (docs/embedding.md).
   */
  pushAppName?: string;
  /** The token app's name ('{0} access code', '… the {0} Access mobile app'). Unset: 'VIP' (docs/embedding.md). */
  tokenAppName?: string;
  /**
   * true: the host has the customer's consent to trust this device, so every factor check of the
   * login journey asks to bind it and no trust-device box is shown. false (default): the customer
   * decides with the 'Don't ask me again on this device' box. Step-up never binds (spec §4, §6).
   */
  bindDevice?: boolean;
  /** 'small' keeps the narrow layout, 'large' the desktop one; unset: desktop from 512 px (spec §9). */
  appScreenSize?: 'small' | 'large';
  /**
   * The language to show (a BCP 47 tag: 'es', 'es-MX'); the first shipped language by its primary
   * subtag, English when none is. Unset: the browser's preferred languages choose
   * (docs/decisions/029-languages.md).
   */
  language?: string;
  /** Accepted and not used: docs/decisions/011-widget-config-fields.md. */
  apiKey?: string;
  /** Accepted and not used: docs/decisions/011-widget-config-fields.md. */
  prerequisites?: string[];
  /**
   * The device-risk step of widget spec §7 (docs/decisions/045-device-risk-step.md): the provider's
   * script, added to the page, and its real-time beacon, read every 10 seconds, whose signals go to
   * the identity service's first-party beacon in the login journey. Unset (the default): no step.
   * The identity service's RISK_SCRIPT_URL and RISK_BEACON_URL must name the same two (its CSP).
   */
  deviceRisk?: { scriptUrl: string; beaconUrl: string };
  /** Accepted and not used: docs/decisions/011-widget-config-fields.md. */
  authSession?: Record<string, unknown>;
  sessionContext?: string;
  subEvent?: string;
  rejectMessage?: string;
  headingLevel?: 1 | 2 | 3;
  /**
   * The authenticators the host allows (widget spec §7: the list comes from the host): the step-up
   * list, and in either journey a limit on the server's list (only these types are offered).
   */
  authenticators?: AuthenticatorItem[];
  /**
   * Authenticator types this host cannot use, left out of whichever list the widget offers (the
   * device app leaves out `PUSH`: a device cannot approve its own enrolment).
   */
  excludeAuthenticators?: string[];
  onFinish: (result: FinishResult) => void;
  onCancel?: () => void;
  onLogout?: () => void;
  onEvent?: (event: WidgetEvent) => void;
};

type FieldRule = { required?: true; check: (v: unknown) => boolean; expected: string };
const isString = (v: unknown) => typeof v === 'string';
const nonEmpty = (v: unknown) => typeof v === 'string' && v.trim() !== '';
const isFunction = (v: unknown) => typeof v === 'function';
const oneOf =
  (...values: unknown[]) =>
  (v: unknown) =>
    values.includes(v);

/**
 * Every field the config accepts, checked by hand rather than with zod, so that the schema
 * library stays out of the login bundle (docs/decisions/006-bundle-budgets.md).
 */
const fields: Record<keyof SignInConfig, FieldRule> = {
  appId: { required: true, check: nonEmpty, expected: 'a non-empty string' },
  appName: { required: true, check: nonEmpty, expected: 'a non-empty string' },
  endpoint: { check: isString, expected: 'a string (the identity service origin, or "" for this page)' },
  identityEndpoint: { check: isString, expected: 'a string (an address)' },
  resetUrl: { check: isString, expected: 'a string (an address)' },
  preResetUrl: { check: isString, expected: 'a string (an address)' },
  journey: { check: oneOf(...journeys), expected: `one of ${journeys.join(', ')}` },
  start: { check: oneOf('changeUsername', 'ssoError'), expected: "'changeUsername' or 'ssoError'" },
  repPhone: { check: isString, expected: 'a string' },
  businessSMSText: { check: isString, expected: 'a string' },
  pushAppName: { check: nonEmpty, expected: 'a non-empty string' },
  tokenAppName: { check: nonEmpty, expected: 'a non-empty string' },
  bindDevice: { check: (v) => typeof v === 'boolean', expected: 'true or false' },
  appScreenSize: { check: oneOf('small', 'large'), expected: 'small or large' },
  // Any tag: the first shipped language by its primary subtag, else English (pickLanguage).
  language: { check: nonEmpty, expected: "a language tag such as 'en' or 'es-MX'" },
  apiKey: { check: isString, expected: 'a string' },
  prerequisites: {
    check: (v) => Array.isArray(v) && v.every(isString),
    expected: 'an array of strings',
  },
  authSession: {
    check: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
    expected: 'an object',
  },
  deviceRisk: {
    // Both addresses http(s): a javascript: or data: script is refused.
    check: (v) => !!v && ['scriptUrl', 'beaconUrl'].every((k) => /^https?:\/\/\S+$/.test((v as never)[k])),
    expected: 'an object { scriptUrl, beaconUrl }',
  },
  sessionContext: { check: isString, expected: 'a string' },
  subEvent: { check: nonEmpty, expected: 'a non-empty string' },
  rejectMessage: { check: isString, expected: 'a string' },
  headingLevel: { check: oneOf(1, 2, 3), expected: '1, 2 or 3' },
  authenticators: {
    check: (v) =>
      Array.isArray(v) && v.every((a) => typeof a === 'object' && a !== null && typeof a.type === 'string'),
    expected: 'an array of { type, title?, context? }',
  },
  excludeAuthenticators: {
    check: (v) => Array.isArray(v) && v.every(isString),
    expected: "an array of authenticator types (['PUSH'])",
  },
  onFinish: { required: true, check: isFunction, expected: 'a function' },
  onCancel: { check: isFunction, expected: 'a function' },
  onLogout: { check: isFunction, expected: 'a function' },
  onEvent: { check: isFunction, expected: 'a function' },
};

export type ResolvedConfig = Required<
  Pick<
    SignInConfig,
    'appId' | 'appName' | 'endpoint' | 'journey' | 'bindDevice' | 'subEvent' | 'headingLevel' | 'onFinish'
  >
> &
  Omit<SignInConfig, 'endpoint' | 'journey' | 'bindDevice' | 'subEvent' | 'headingLevel'>;

/** A configuration mistake of the host developer: names every field that is wrong. */
export class SignInConfigError extends Error {
  override name = 'SignInConfigError';
}

export function resolveConfig(config: SignInConfig): ResolvedConfig {
  if (typeof config !== 'object' || config === null) {
    throw new SignInConfigError('Gatehouse sign-in widget: invalid config: config must be an object');
  }
  const problems: string[] = [];
  const given = config as Record<string, unknown>;
  const unknown = Object.keys(given).filter((key) => !(key in fields));
  if (unknown.length) problems.push(`unknown field(s) ${unknown.join(', ')}`);
  for (const [name, rule] of Object.entries(fields)) {
    const value = given[name];
    if (value === undefined) {
      if (rule.required) problems.push(`${name}: is required (${rule.expected})`);
    } else if (!rule.check(value)) {
      problems.push(`${name}: must be ${rule.expected}`);
    }
  }
  if (problems.length) {
    throw new SignInConfigError(`Gatehouse sign-in widget: invalid config: ${problems.join('; ')}`);
  }
  return {
    ...config,
    endpoint: config.endpoint ?? '',
    journey: config.journey ?? 'LOGIN',
    bindDevice: config.bindDevice ?? false,
    subEvent: config.subEvent ?? appDefaults.subEventDefault,
    headingLevel: config.headingLevel ?? 1,
  };
}
