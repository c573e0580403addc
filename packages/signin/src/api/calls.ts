import { customerPaths as paths } from '@gatehouse/contract/client';
import type { FactorCall, FactorCalls } from '../factors.ts';

/** The widget's own calls of widget spec §7 (sign-in, session, username): method and path. */
const appCalls = {
  // baseInfo: the body carries requestBaseInfo with an empty sessionTokens (portal spec §3, §7).
  passwordAuthentication: { method: 'POST', path: paths.passwordAuthentication, baseInfo: true },
  sessionLogin: { method: 'POST', path: paths.sessionLogin, baseInfo: true },
  logout: { method: 'DELETE', path: paths.sessionLogout, baseInfo: true },
  rememberGet: { method: 'GET', path: paths.rememberUsername },
  rememberPut: { method: 'PUT', path: paths.rememberUsername },
  rememberPost: { method: 'POST', path: paths.rememberUsername },
  attributes: { method: 'GET', path: paths.identityAttributes },
  authenticators: { method: 'GET', path: paths.authenticators },
  trustedDevice: { method: 'POST', path: paths.trustedDevice },
  changeUsername: { method: 'PUT', path: paths.changeUsername },
  sessionUpdate: { method: 'POST', path: paths.sessionUpdate },
  sessionExtend: { method: 'POST', path: paths.sessionExtend },
  clientLogs: { method: 'POST', path: paths.clientLogs },
} as const;

type Call = FactorCall & { readonly baseInfo?: true };

const table: Record<string, Call> = { ...appCalls };

/**
 * Every call of widget spec §7: its method and path under the configured endpoint base. The
 * factors' join when their screens load (screens/Routes.tsx `addCalls`, from each factor folder's
 * screens.ts), off the login route: only a factor's screens make its calls.
 */
export const calls = table as Readonly<typeof appCalls & FactorCalls>;

export type CallName = keyof typeof calls;

/** A factor's calls join the table (its screens' chunk loaded). */
export function addCalls(more: Readonly<Record<string, FactorCall>>): void {
  Object.assign(table, more);
}

/**
 * The factor a second-factor call proves. In the step-up journey the token type header carries it
 * (widget spec §4: "A step-up journey sets the token type header to the factor value").
 */
export const callFactor = (name: CallName): string | undefined => table[name]?.factor;
