import {
  answerOf,
  createHttpClient,
  customerHeaders,
  type DevicePush,
  type DeviceRegistration,
  deviceOutcomeTables,
  headers,
  outcomeMessages,
  outcomesOf,
  type PushDecision,
  paths,
  TransportError,
} from '@gatehouse/contract/client';
import { defaultLanguage } from '@gatehouse/i18n';
import type { DeviceKey } from './device/deviceKey.ts';
import { hasText, type MessageKey, t, textsLanguage } from './messages/index.ts';
import { settings } from './settings.ts';

/** A call's answer: its data, or the device app's text for its code (from the outcome table). */
export type Answer<T> = { ok: true; data: T } | { ok: false; code: number; message: string };

/** The device's own calls (the widget it hosts to add an account makes its own). */
const tables = deviceOutcomeTables;
type CallName = keyof typeof tables;

/** The language the page shows: sent as Accept-Language, so the service's messages match it. */
const language = () => textsLanguage() ?? defaultLanguage;

/** The one client (docs/decisions/040-one-shell-one-client.md) with the customer API's headers. */
export const client = () =>
  createHttpClient({
    language: language(),
    headers: customerHeaders(settings),
  });

/**
 * The text of a failed call: the message key its outcome table gives the code, in our catalog. A
 * code the table gives several messages (deviceRegister's 1403: a step-up missing, or a refused
 * proof) cannot say which by its number: the server's own message, in the language we asked for, does.
 */
export function failureText(call: CallName, code: number, serverMessage?: string): string {
  const outcome = outcomesOf(tables[call])[code];
  const keys = outcome ? outcomeMessages(outcome) : [];
  if (keys.length > 1 && serverMessage) return serverMessage;
  const text = `outcome.${keys[0]}`;
  return keys[0] && hasText(text) ? t(text as MessageKey) : t('somethingWrong');
}

async function post<T>(call: CallName, body: unknown): Promise<Answer<T>> {
  const { method, path } = tables[call];
  try {
    const result = await client().request<T>(method as 'POST', path, { body });
    const answer = answerOf(result, (code, serverMessage) => failureText(call, code, serverMessage));
    return answer.ok ? { ok: true, data: answer.data } : answer;
  } catch (error) {
    if (error instanceof TransportError) return { ok: false, code: 0, message: t('offline') };
    throw error;
  }
}

export type DemoAccount = { username: string; about: string };

/** The device's calls (contract paths device*, docs/decisions/022-push-and-device.md). */
export const deviceApi = {
  async pushes(key: DeviceKey) {
    return post<{ pushes: DevicePush[] }>('devicePushes', { proof: await key.proof('pushes') });
  },
  async answer(key: DeviceKey, id: string, decision: PushDecision, number?: string) {
    const signature = await key.signAnswer(id, decision, number ?? '');
    return post<{ status: string }>('devicePushAnswer', {
      id,
      decision,
      ...(number ? { number } : {}),
      key: key.thumbprint,
      signature,
    });
  },
  async registrations(key: DeviceKey) {
    return post<{ registrations: DeviceRegistration[] }>('deviceRegistrations', {
      proof: await key.proof('registrations'),
    });
  },
  async rename(key: DeviceKey, id: string, name: string) {
    return post<{ registration?: DeviceRegistration }>('deviceRename', {
      id,
      name,
      proof: await key.proof(`rename:${id}`),
    });
  },
  async remove(key: DeviceKey, id: string) {
    return post<unknown>('deviceRemove', { id, proof: await key.proof(`remove:${id}`) });
  },
  async register(key: DeviceKey, name: string) {
    return post<{ registration: DeviceRegistration }>('deviceRegister', {
      publicKey: key.publicKey,
      name,
      proof: await key.proof('register'),
    });
  },
  async claim(key: DeviceKey, username: string) {
    return post<{ registration?: DeviceRegistration }>('devDemoDeviceClaim', {
      username,
      publicKey: key.publicKey,
      proof: await key.proof(`claim:${username}`),
    });
  },
  /**
   * Development mode: the demo accounts with push (a 200 JSON answer); null in production, where
   * the route does not exist (404), or when the answer is not that list.
   */
  async demoDevices(): Promise<DemoAccount[] | null> {
    try {
      const result = await client().request<unknown>('GET', paths.devDemoDevices);
      const accounts = (result.envelope as { accounts?: unknown } | null)?.accounts;
      return result.http === 200 && Array.isArray(accounts) ? (accounts as DemoAccount[]) : null;
    } catch {
      return null;
    }
  },
  /** Ends the web session the widget opened: the device app needs none (portal spec §7 logout). */
  async signOut() {
    await client()
      .request('DELETE', paths.sessionLogout, {
        body: { requestBaseInfo: { sessionTokens: {} } },
        headers: { [headers.acceptTokenType]: 'FAC' },
      })
      .catch(() => undefined);
  },
  /**
   * The live channel: POST with the proof in the body (an EventSource would need it in the URL),
   * answered with text/event-stream. Throws when the transport fails; a non-200 answer is returned
   * as it is, for the caller to back off.
   */
  async openStream(key: DeviceKey, signal: AbortSignal): Promise<Response> {
    return client().response('POST', paths.deviceStream, {
      body: { proof: await key.proof('stream') },
      headers: { Accept: 'text/event-stream' },
      signal,
    });
  },
};

/**
 * The event names of a text/event-stream body, as they arrive (the data is not needed: an event
 * only says the pushes changed).
 */
export async function* streamEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = block
          .split('\n')
          .find((line) => line.startsWith('event:'))
          ?.slice(6)
          .trim();
        if (block.split('\n').some((line) => line && !line.startsWith(':'))) yield name || 'message';
        end = buffer.indexOf('\n\n');
      }
    }
  } finally {
    reader.releaseLock();
  }
}
