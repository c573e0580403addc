import {
  type DeviceProofPurpose,
  type DevicePush,
  type DeviceRegistration,
  deviceProofMessage,
  fromBase64url,
  jwkThumbprint,
  type P256PublicKey,
  paths,
  pushAnswerMessage,
} from '@gatehouse/contract/client';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { App } from '../src/App.tsx';
import type { KeyStore } from '../src/device/keyStore.ts';
import { resetFirstScreen } from '../src/usePage.ts';

export type Recorded = { method: string; path: string; headers: Record<string, string>; body: unknown };

export const envelope = (code: number, message: string, successData?: unknown) => ({
  responseBaseInfo: { requestId: 'REQtest', status: { code, message } },
  ...(successData !== undefined ? { successData } : {}),
  ...(code !== 1200 ? { errorType: 'ERROR', error: { code, message } } : {}),
});

const verifyKey = (jwk: P256PublicKey) =>
  crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);

/** Verifies an ECDSA P-256 / SHA-256 signature (base64url, P1363) over a text. */
export async function verifies(jwk: P256PublicKey, signature: string, text: string): Promise<boolean> {
  return crypto.subtle.verify(
    { name: 'ECDSA', hash: 'SHA-256' },
    await verifyKey(jwk),
    fromBase64url(signature),
    new TextEncoder().encode(text),
  );
}

export const push = (over: Partial<DevicePush> = {}): DevicePush => ({
  id: 'push-1',
  username: 'pushuser1',
  status: 'PENDING',
  description: 'Sign in to Prime Portal',
  content: {
    browserName: 'Firefox',
    osName: 'Windows',
    time: '2026-11-23T17:00:00.000Z',
    host: 'portal.example',
    journey: 'LOGIN',
  },
  createdAt: new Date(Date.now() - 5_000).toISOString(),
  expiresAt: new Date(Date.now() + 115_000).toISOString(),
  answeredAt: null,
  numberMatching: false,
  ...over,
});

/**
 * The device API of the contract (paths device*, devDemoDevices), in memory: every proof and every
 * answer signature is verified with WebCrypto against the device keys it knows (registered,
 * claimed, or given by the test), as the server does; every request is recorded.
 */
export function fakeDeviceServer(
  options: {
    dev?: boolean;
    pushes?: DevicePush[];
    registrations?: Array<DeviceRegistration>;
    /** Answers for a path instead of the fake's own (status code, message). */
    refuse?: Record<string, { code: number; message: string; http?: number }>;
    /** Development: the demo tokens GET devDemoTokens lists. */
    demoTokens?: Array<{ username: string; credentialId: string; uri: string }>;
    /** The number the sign-in screen shows, for a push with number matching on. */
    matching?: Record<string, string>;
  } = {},
) {
  const requests: Recorded[] = [];
  const keys = new Map<string, P256PublicKey>();
  const proofs: Array<{ purpose: string; ok: boolean }> = [];
  let pushes = [...(options.pushes ?? [])];
  let registrations = [...(options.registrations ?? [])];
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();

  async function checkProof(
    proof: { key: string; time: string; signature: string },
    purpose: DeviceProofPurpose,
  ) {
    const jwk = keys.get(proof.key);
    const ok =
      !!jwk && (await verifies(jwk, proof.signature, deviceProofMessage(purpose, proof.time, proof.key)));
    proofs.push({ purpose, ok });
    return ok;
  }

  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const refused = () => json(envelope(1403, 'The device could not be verified.'), 403);

  async function handle(method: string, path: string, body: Record<string, unknown>, signal?: AbortSignal) {
    const api = path.replace(/^\/api/, '');
    const refusal = options.refuse?.[api];
    if (refusal) return json(envelope(refusal.code, refusal.message), refusal.http ?? 403);
    const proof = body.proof as { key: string; time: string; signature: string };
    switch (`${method} ${api}`) {
      case `GET ${paths.health}`:
        return new Response(null, { status: 204 });
      case `GET ${paths.devDemoDevices}`:
        return options.dev
          ? json({ accounts: [{ username: 'pushuser1', about: 'Push with a seeded device' }] })
          : json(envelope(1404, 'Not found'), 404);
      case `GET ${paths.devDemoTokens}`:
        return options.dev
          ? json({ accounts: options.demoTokens ?? [] })
          : json(envelope(1404, 'Not found'), 404);
      case `POST ${paths.devDemoDeviceClaim}`: {
        const publicKey = body.publicKey as P256PublicKey;
        keys.set(await jwkThumbprint(publicKey), publicKey);
        if (!(await checkProof(proof, `claim:${body.username}`))) return refused();
        const registration = {
          id: `cred-${body.username}`,
          username: String(body.username),
          name: 'Demo device',
          createdAt: new Date().toISOString(),
          lastUsedAt: null,
        };
        registrations.push(registration);
        return json(envelope(1200, 'This device can now approve sign-ins.', { registration }));
      }
      case `POST ${paths.deviceRegister}`: {
        const publicKey = body.publicKey as P256PublicKey;
        keys.set(await jwkThumbprint(publicKey), publicKey);
        if (!(await checkProof(proof, 'register'))) return refused();
        const registration = {
          id: 'cred-new',
          username: 'otpuser1',
          name: String(body.name),
          createdAt: new Date().toISOString(),
          lastUsedAt: null,
        };
        registrations.push(registration);
        return json(envelope(1200, 'This device can now approve sign-ins.', { registration }));
      }
      case `POST ${paths.deviceRegistrations}`:
        if (!(await checkProof(proof, 'registrations'))) return refused();
        return json(envelope(1200, 'Success', { registrations }));
      case `POST ${paths.deviceRename}`: {
        if (!(await checkProof(proof, `rename:${body.id}`))) return refused();
        registrations = registrations.map((r) => (r.id === body.id ? { ...r, name: String(body.name) } : r));
        return json(envelope(1200, 'The device was renamed.', {}));
      }
      case `POST ${paths.deviceRemove}`:
        if (!(await checkProof(proof, `remove:${body.id}`))) return refused();
        registrations = registrations.filter((r) => r.id !== body.id);
        return json(envelope(1200, 'The device was removed.', {}));
      case `POST ${paths.devicePushes}`:
        if (!(await checkProof(proof, 'pushes'))) return refused();
        return json(envelope(1200, 'Success', { pushes }));
      case `POST ${paths.devicePushAnswer}`: {
        const jwk = keys.get(String(body.key));
        const target = pushes.find((p) => p.id === body.id);
        if (!target) return json(envelope(1404, 'There is no such notification.'), 404);
        const decision = body.decision as 'APPROVE' | 'DECLINE' | 'FRAUD';
        const text = pushAnswerMessage(target.id, decision, (body.number as string | undefined) ?? '');
        if (!jwk || !(await verifies(jwk, String(body.signature), text))) return refused();
        if (target.status !== 'PENDING') return json(envelope(1409, 'already answered'), 409);
        const wrong =
          decision === 'APPROVE' && target.numberMatching && body.number !== options.matching?.[target.id];
        const status = wrong
          ? 'COMPLETED_FAILURE'
          : decision === 'APPROVE'
            ? 'COMPLETED_SUCCESSFUL'
            : decision === 'DECLINE'
              ? 'DECLINED'
              : 'FRAUD';
        const answeredAt = new Date().toISOString();
        pushes = pushes.map((p) => (p.id === target.id ? { ...p, status, answeredAt } : p));
        // As the server does, the answer marks the account's device used.
        registrations = registrations.map((r) =>
          r.username === target.username ? { ...r, lastUsedAt: answeredAt } : r,
        );
        return json(envelope(1200, 'Your answer was recorded.', { status }));
      }
      case `POST ${paths.deviceStream}`: {
        if (!(await checkProof(proof, 'stream'))) return refused();
        let controller!: ReadableStreamDefaultController<Uint8Array>;
        const stream = new ReadableStream<Uint8Array>({
          start(c) {
            controller = c;
            streams.add(c);
          },
          cancel() {
            streams.delete(controller);
          },
        });
        signal?.addEventListener('abort', () => {
          streams.delete(controller);
          try {
            controller.error(new DOMException('aborted', 'AbortError'));
          } catch {}
        });
        return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
      }
      case `DELETE ${paths.sessionLogout}`:
        return new Response(null, { status: 204 });
      default:
        return json(envelope(1404, 'Not found'), 404);
    }
  }

  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const path = new URL(url, 'http://localhost').pathname;
      const headers = Object.fromEntries(Object.entries((init.headers as Record<string, string>) ?? {}));
      const body = init.body ? JSON.parse(String(init.body)) : {};
      requests.push({ method, path, headers, body });
      return handle(method, path, body, init.signal ?? undefined);
    }),
  );

  return {
    requests,
    proofs,
    /** Lets the fake know a device key, as if it had been registered before. */
    know: async (publicKey: P256PublicKey) => keys.set(await jwkThumbprint(publicKey), publicKey),
    /** A new push arrives: it is listed and the open live channels say so. */
    send(next: DevicePush) {
      pushes = [next, ...pushes];
      for (const c of streams) c.enqueue(new TextEncoder().encode('event: pushes\ndata: {}\n\n'));
    },
    openStreams: () => streams.size,
    /** A registration removed elsewhere (the account's security page, support). */
    drop(id: string) {
      registrations = registrations.filter((r) => r.id !== id);
    },
    calls: (path: string) => requests.filter((r) => r.path === `/api${path}`),
  };
}

/** The whole app at a hash route, with the given key store, as a browser would start it. */
export function renderApp(store: KeyStore, at = '/') {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the CSRF cookie.
  document.cookie = 'XSRF-TOKEN=abc.def';
  window.history.replaceState(null, '', `#${at}`);
  resetFirstScreen();
  return render(<App store={store} />);
}
