import { headers } from '@gatehouse/contract/client';
import type { ApiClient, CallResult } from '../../api/client.ts';
import { type PasskeyCall, passkeyCalls } from './calls.ts';

/**
 * One passkey call through the widget's client (its headers, CSRF, language). In step-up the token
 * type header names the factor (widget spec §4), as useCall does for the other factors.
 */
export function passkeyCall<T>(
  client: ApiClient,
  name: PasskeyCall,
  options: { body?: unknown; stepUp?: boolean } = {},
): Promise<CallResult<T>> {
  const call = passkeyCalls[name];
  const factor = 'factor' in call ? call.factor : undefined;
  return client.request<T>(call.method, call.path, {
    body: options.body ?? {},
    ...(options.stepUp && factor ? { headers: { [headers.acceptTokenType]: factor } } : {}),
  });
}
