import { appDefaults } from '@gatehouse/contract';
import { z } from 'zod';

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
  repPhone?: string;
  businessSMSText?: string;
  bindDevice?: boolean;
  appScreenSize?: 'small' | 'large';
  sessionContext?: string;
  subEvent?: string;
  rejectMessage?: string;
  headingLevel?: 1 | 2 | 3;
  onFinish: (result: FinishResult) => void;
  onCancel?: () => void;
  onLogout?: () => void;
  onEvent?: (event: WidgetEvent) => void;
};

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'must be a function');

const schema = z
  .object({
    appId: z.string().min(1),
    appName: z.string().min(1),
    endpoint: z.string().default(''),
    identityEndpoint: z.string().optional(),
    resetUrl: z.string().optional(),
    preResetUrl: z.string().optional(),
    journey: z.enum(journeys).default('LOGIN'),
    repPhone: z.string().optional(),
    businessSMSText: z.string().optional(),
    bindDevice: z.boolean().default(false),
    appScreenSize: z.enum(['small', 'large']).optional(),
    sessionContext: z.string().optional(),
    subEvent: z.string().default(appDefaults.subEventDefault),
    rejectMessage: z.string().optional(),
    headingLevel: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(1),
    onFinish: fn,
    onCancel: fn.optional(),
    onLogout: fn.optional(),
    onEvent: fn.optional(),
  })
  .strict();

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
  const parsed = schema.safeParse(config);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      if (issue.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.join(', ')}`;
      const field = issue.path.join('.') || 'config';
      return `${field}: ${issue.input === undefined ? 'is required' : issue.message}`;
    });
    throw new SignInConfigError(`Gatehouse sign-in widget: invalid config: ${problems.join('; ')}`);
  }
  return parsed.data as ResolvedConfig;
}
