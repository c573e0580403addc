import {
  type Codes,
  type CoreSecurityCallName,
  coreSecurityOutcomeTables,
  Status,
} from '@gatehouse/contract/client';
import { TransportError } from '@gatehouse/signin';
import { api } from '../../api.ts';
import { t } from '../../texts.ts';

/**
 * The security page's calls: their names in the contract's core outcome tables (security-outcomes.ts);
 * a factor's section (sections/<key>/) makes its factor's calls itself.
 */
export type SecurityCall = CoreSecurityCallName;

/**
 * What a security call came to, read through its outcome table (packages/contract/src/security-outcomes.ts):
 * done (with the server's text), the step-up it needs first, no session any more, an incorrect
 * code, or a refusal whose text the page shows as the server gives it.
 */
export type SecurityAnswer<T> =
  | { kind: 'done'; data: T; message: string }
  | { kind: 'stepUp' }
  | { kind: 'signedOut' }
  | { kind: 'incorrectCode'; message: string }
  | { kind: 'refused'; code: number; message: string };

/** One call of the security page; a transport failure or a fault is a refusal with our own text. */
export async function securityCall<T>(call: SecurityCall, body?: unknown): Promise<SecurityAnswer<T>> {
  const table = coreSecurityOutcomeTables[call];
  try {
    const result = await api.request<T>(table.method, table.path, body === undefined ? {} : { body });
    if (result.http === 401) return { kind: 'signedOut' };
    // The core's table: the composed one (securityClientAction) would bring every factor's.
    const action = (table.codes as Codes)[result.status.code]?.action;
    const message = result.status.message;
    if (action?.kind === 'SUCCESS' && result.status.code === Status.SUCCESS) {
      return { kind: 'done', data: result.envelope?.successData as T, message };
    }
    if (action?.kind === 'ERROR' && action.error === 'stepUpRequired') return { kind: 'stepUp' };
    if (action?.kind === 'ERROR' && action.error === 'incorrectCode') {
      return { kind: 'incorrectCode', message: message || t('security.genericError') };
    }
    // A refusal of the table, a rate limit (its text says how long), a fault: the server's text.
    return { kind: 'refused', code: result.status.code, message: message || t('security.genericError') };
  } catch (error) {
    if (error instanceof TransportError)
      return { kind: 'refused', code: 0, message: t('security.genericError') };
    throw error;
  }
}
