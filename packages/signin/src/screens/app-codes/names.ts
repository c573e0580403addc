import type { SignInConfig } from '../../config.ts';
import { tx } from './messages.ts';

/** The token app's name (config tokenAppName; decision 024 "Widget"). */
export const tokenAppName = (config: SignInConfig) => config.tokenAppName ?? 'VIP';

/** The provider as the texts name it: its short name (businessSMSText), else 'your institution'. */
export const providerName = (config: SignInConfig) =>
  config.businessSMSText?.trim() || tx('token.institution');
