import { paths } from '@gatehouse/contract/client';
import { client } from '../../api.ts';

export type DemoToken = { username: string; credentialId: string; uri: string };

/**
 * Development mode: the demo accounts' tokens (GET devDemoTokens, a 200 JSON answer); null in
 * production, where the route does not exist (404), or when the answer is not that list.
 */
export async function demoTokens(): Promise<DemoToken[] | null> {
  try {
    const result = await client().request<unknown>('GET', paths.devDemoTokens);
    const accounts = (result.envelope as { accounts?: unknown } | null)?.accounts;
    return result.http === 200 && Array.isArray(accounts) ? (accounts as DemoToken[]) : null;
  } catch {
    return null;
  }
}
