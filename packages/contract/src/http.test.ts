import { afterEach, describe, expect, it, vi } from 'vitest';
import { headers } from './headers.ts';
import { answerOf, createHttpClient, customerHeaders, TransportError } from './http.ts';
import { Status } from './status.ts';

type Sent = { url: string; init: RequestInit & { headers: Record<string, string> } };

function serve(...answers: Array<Response | Error>) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: Sent['init']) => {
      sent.push({ url, init });
      const next = answers.shift();
      if (!next || next instanceof Error) throw next ?? new Error('no answer');
      return next;
    }),
  );
  return sent;
}

const envelope = (code: number, message: string, data?: unknown, init: ResponseInit = {}) =>
  new Response(
    JSON.stringify({
      responseBaseInfo: { status: { code, message } },
      ...(data ? { successData: data } : {}),
    }),
    { status: 200, headers: { 'content-type': 'application/json' }, ...init },
  );

describe('the one HTTP client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends JSON with a fresh request id, the language and the app headers; reads the envelope', async () => {
    const sent = serve(envelope(Status.SUCCESS, 'OK', { name: 'a' }), envelope(Status.SUCCESS, 'OK'));
    const client = createHttpClient({
      endpoint: 'https://id.example/',
      language: 'es',
      headers: customerHeaders({ appId: 'app', appName: 'Portal', sessionContext: 'ctx' }),
    });
    const result = await client.request('GET', '/session', { query: { a: 'b c' } });
    await client.request('GET', '/session');
    expect(sent[0]?.url).toBe('https://id.example/api/session?a=b+c');
    const sentHeaders = sent[0]?.init.headers ?? {};
    expect(sentHeaders[headers.requestId]).toMatch(/^REQ[A-Za-z0-9]{32}$/);
    expect(sent[1]?.init.headers[headers.requestId]).not.toBe(sentHeaders[headers.requestId]);
    expect(sentHeaders['Accept-Language']).toBe('es');
    expect(sentHeaders[headers.appId]).toBe('app');
    expect(sentHeaders[headers.sessionCtx]).toBe('ctx');
    expect(sent[0]?.init.body).toBeUndefined();
    expect(result.status).toEqual({ code: Status.SUCCESS, message: 'OK' });
    expect(answerOf(result, () => 'never')).toEqual({ ok: true, data: { name: 'a' }, message: 'OK' });
  });

  it('a 204 is success without a body; an answer that is not JSON is an unknown error', async () => {
    serve(new Response(null, { status: 204 }), new Response('<html>', { status: 502 }));
    const client = createHttpClient({ csrf: 'response' });
    expect(answerOf(await client.request('DELETE', '/x'), () => 'never')).toEqual({
      ok: true,
      data: {},
      message: '',
    });
    const failed = await client.request('GET', '/x');
    expect(failed.http).toBe(502);
    expect(answerOf(failed, (code, _message, http) => `${code}/${http}`)).toEqual({
      ok: false,
      code: Status.UNKNOWN,
      message: `${Status.UNKNOWN}/502`,
    });
  });

  it('a failure is the status code with the text the app gives it', async () => {
    serve(envelope(1401, 'Wrong password', undefined, { status: 401 }));
    const result = await createHttpClient({ csrf: 'response' }).request('POST', '/x', { body: { a: 1 } });
    expect(answerOf(result, (code, message) => `${code}: ${message}`)).toEqual({
      ok: false,
      code: 1401,
      message: '1401: Wrong password',
    });
  });

  it("the console's CSRF token comes from the response header, and a refused change is sent once more with it", async () => {
    const sent = serve(
      envelope(1403, 'Forbidden', undefined, { status: 403, headers: { [headers.csrf]: 'token-1' } }),
      envelope(Status.SUCCESS, 'OK'),
      envelope(Status.SUCCESS, 'OK'),
    );
    const client = createHttpClient({ csrf: 'response', credentials: 'same-origin', emptyBody: false });
    const result = await client.request('POST', '/console/session', { body: { name: 'n' } });
    expect(result.status.code).toBe(Status.SUCCESS);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.init.headers[headers.csrf]).toBeUndefined();
    expect(sent[1]?.init.headers[headers.csrf]).toBe('token-1');
    expect(sent[1]?.init.credentials).toBe('same-origin');
    expect(sent[1]?.init.headers['Content-Type']).toBe('application/json');
    // No body, no Content-Type (the console's DELETE); the kept token goes with every call.
    await client.request('DELETE', '/console/session');
    expect(sent[2]?.init.body).toBeUndefined();
    expect(sent[2]?.init.headers['Content-Type']).toBeUndefined();
    expect(sent[2]?.init.headers[headers.csrf]).toBe('token-1');
  });

  it('a change to the customer API always sends a JSON body; a failed transport is a TransportError', async () => {
    const sent = serve(
      new Error('health down'),
      envelope(Status.SUCCESS, 'OK'),
      new TypeError('Failed to fetch'),
    );
    const client = createHttpClient();
    await client.request('POST', '/x');
    expect(sent[1]?.init.body).toBe('{}');
    expect(sent[1]?.init.headers['Content-Type']).toBe('application/json');
    await expect(client.request('GET', '/x')).rejects.toBeInstanceOf(TransportError);
  });
});
