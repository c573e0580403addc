import {
  type DeviceProof,
  type DeviceProofPurpose,
  deviceProofMessage,
  headers as headerNames,
  jwkThumbprint,
  type P256PublicKey,
  type PushDecision,
  paths,
  pushAnswerMessage,
  toBase64url,
} from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../src/context.ts';
import { canonicalJwk } from '../../src/factors/push/device-keys.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { api, Client, rememberSecret } from './harness.ts';

const { subtle } = globalThis.crypto;

/**
 * A device as the device app is one: a P-256 key pair made with WebCrypto (the private key not
 * extractable), proofs and answers signed with it (IEEE P1363, base64url), its calls made by a
 * browser-like client of its own (the device app's page: CSRF, no session).
 */
export class TestDevice {
  private constructor(
    private readonly pair: CryptoKeyPair,
    readonly publicKey: P256PublicKey,
    readonly key: string,
    private readonly clock: Clock,
  ) {}

  static async create(clock: Clock): Promise<TestDevice> {
    const pair = (await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    const jwk = await subtle.exportKey('jwk', pair.publicKey);
    const publicKey: P256PublicKey = { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! };
    return new TestDevice(pair, publicKey, await jwkThumbprint(publicKey), clock);
  }

  async sign(message: string): Promise<string> {
    const signature = await subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      this.pair.privateKey,
      new TextEncoder().encode(message),
    );
    const encoded = toBase64url(new Uint8Array(signature));
    // No log line may carry a signature (the harness checks every line at the end of the file).
    rememberSecret(encoded);
    return encoded;
  }

  /** A proof for a purpose, at the server clock's time (or the given one). */
  async proof(purpose: DeviceProofPurpose, at: Date = this.clock.now()): Promise<DeviceProof> {
    const time = at.toISOString();
    return { key: this.key, time, signature: await this.sign(deviceProofMessage(purpose, time, this.key)) };
  }

  async answerBody(id: string, decision: PushDecision, number?: string) {
    return {
      id,
      decision,
      ...(number !== undefined ? { number } : {}),
      key: this.key,
      signature: await this.sign(pushAnswerMessage(id, decision, number ?? '')),
    };
  }

  /**
   * Registers the key to an account directly, as the seed does: established (added long ago) unless
   * `addedAt` says when (a recent device: docs/decisions/030-credential-lifecycle.md).
   */
  async enrol(ctx: Context, accountId: string, name = 'Test phone', addedAt: Date = new Date(0)) {
    return ctx.credentials.add({
      accountId,
      kind: 'push',
      name,
      publicPart: canonicalJwk(this.publicKey),
      data: { thumbprint: this.key, algorithm: 'ES256' },
      createdAt: addedAt,
    });
  }
}

/** The device app's calls, through its own browser-like client. */
export class DeviceApp {
  readonly client: Client;
  constructor(
    app: FastifyInstance,
    readonly device: TestDevice,
  ) {
    this.client = new Client(app);
  }
  async pushes() {
    return this.client.post(api(paths.devicePushes), { proof: await this.device.proof('pushes') });
  }
  async answer(id: string, decision: PushDecision, number?: string) {
    return this.client.post(api(paths.devicePushAnswer), await this.device.answerBody(id, decision, number));
  }
  async registrations() {
    return this.client.post(api(paths.deviceRegistrations), {
      proof: await this.device.proof('registrations'),
    });
  }
}

/** What the widget sends as a push's content (widget spec §3 push init). */
export const pushContent = JSON.stringify({
  deviceInfo: { browserName: 'Firefox', osName: 'Linux' },
  time: '2026-11-23T17:00:00.000Z',
  host: 'portal.bank.example',
  journey: 'LOGIN',
});
export const pushSendBody = {
  transactionDescription: 'Sign in to Prime Portal',
  secureTransactionContent: pushContent,
  localizedPushKey: 'PUSH_LOGIN',
};

/**
 * A request as one browser makes it (its cookies and CSRF token as they are now), not yet sent: call
 * the result as many times, at once, as a burst needs.
 */
export function prepared(app: FastifyInstance, client: Client, url: string, body: unknown) {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const headers = {
    cookie,
    [headerNames.csrf]: client.cookies.get('XSRF-TOKEN')!,
    'content-type': 'application/json',
  };
  return () => app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
}
