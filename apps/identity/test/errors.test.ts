import { paths } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import { api, Client, expectFailureEnvelope, json, targets, useHarness } from './support/harness.ts';

const url = api(paths.passwordAuthentication);

describe.each(targets)('error envelopes ($name)', (target) => {
  const h = useHarness(target);

  test('malformed JSON: 400, code 4400, a clear message', async () => {
    const { app } = await h.start();
    const client = new Client(app);
    for (const payload of ['{"username": "alexdemo1", "password": ', '{not json}', '[1,2', 'null x']) {
      const r = await client.request({ method: 'POST', url, payload });
      const body = expectFailureEnvelope(r, 400, 4400);
      expect(body.responseBaseInfo.status.message).toBe('The request body is not valid JSON.');
      // The parser's own text (which quotes the body) is not echoed.
      expect(r.body).not.toContain('alexdemo1');
    }
  });

  test('missing fields: 400 naming the field', async () => {
    const { app } = await h.start();
    const client = new Client(app);
    const cases: Array<[unknown, string]> = [
      [{ password: 'Harbor7Lights' }, 'username: is required'],
      [{ username: 'alexdemo1' }, 'password: is required'],
      [{}, 'username: is required'],
      [{ username: '', password: 'x' }, 'username: username is required'],
    ];
    for (const [body, message] of cases) {
      const r = await client.post(url, body);
      expect(expectFailureEnvelope(r, 400, 4400).responseBaseInfo.status.message).toBe(
        `The request is not valid: ${message}`,
      );
    }
    // No body at all.
    const empty = await client.request({ method: 'POST', url });
    expect(expectFailureEnvelope(empty, 400, 4400).responseBaseInfo.status.message).toMatch(
      /^The request is not valid: /,
    );
  });

  test('wrong types: 400 naming the field and the problem', async () => {
    const { app } = await h.start();
    const client = new Client(app);
    const cases: Array<[unknown, string]> = [
      [
        { username: 123, password: 'Harbor7Lights' },
        'username: Invalid input: expected string, received number',
      ],
      [
        { username: 'alexdemo1', password: ['a'] },
        'password: Invalid input: expected string, received array',
      ],
      [
        { username: 'alexdemo1', password: 'x'.repeat(129) },
        'password: password is longer than 128 characters',
      ],
      [{ username: 'alexdemo1', password: null }, 'password: Invalid input: expected string, received null'],
      ['a string', 'body: Invalid input: expected object, received string'],
      [[1, 2], 'body: Invalid input: expected object, received array'],
    ];
    for (const [body, message] of cases) {
      const r = await client.post(url, body);
      expect(expectFailureEnvelope(r, 400, 4400).responseBaseInfo.status.message).toBe(
        `The request is not valid: ${message}`,
      );
    }
  });

  test('forbidden prototype keys are refused as malformed JSON', async () => {
    const { app } = await h.start();
    const client = new Client(app);
    for (const payload of ['{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}']) {
      const r = await client.request({ method: 'POST', url, payload });
      expect(expectFailureEnvelope(r, 400, 4400).responseBaseInfo.status.message).toBe(
        'The request body is not valid JSON.',
      );
    }
  });

  test('a body over BODY_LIMIT_BYTES (16384 by default): 400', async () => {
    const { app } = await h.start();
    const client = new Client(app);
    const big = JSON.stringify({ username: 'alexdemo1', password: 'Harbor7Lights', pad: 'x'.repeat(16384) });
    const r = await client.request({ method: 'POST', url, payload: big });
    const body = expectFailureEnvelope(r, 400, 4400);
    expect(body.responseBaseInfo.status.message).toBe('The request body is larger than 16384 bytes.');
    // Just under the limit is parsed (and answered by the contract check, not the size check).
    const fits = JSON.stringify({ username: 'alexdemo1', password: 'Harbor7Lights', pad: 'x'.repeat(16000) });
    expect(
      json(await client.request({ method: 'POST', url, payload: fits })).responseBaseInfo.status.code,
    ).not.toBe(4400);
  });

  test('BODY_LIMIT_BYTES moves the limit', async () => {
    const { app } = await h.start({ BODY_LIMIT_BYTES: '2048' });
    const r = await new Client(app).request({
      method: 'POST',
      url,
      payload: JSON.stringify({ username: 'alexdemo1', password: 'x'.repeat(3000) }),
    });
    expect(expectFailureEnvelope(r, 400, 4400).responseBaseInfo.status.message).toBe(
      'The request body is larger than 2048 bytes.',
    );
  });

  test('a body that is not JSON: 415 envelope', async () => {
    const { app } = await h.start();
    const r = await new Client(app).request({
      method: 'POST',
      url,
      payload: 'username=alexdemo1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(expectFailureEnvelope(r, 415, 4400).responseBaseInfo.status.message).toBe(
      'The request body must be JSON (Content-Type: application/json).',
    );
  });

  test('unknown /api paths: 404 envelope; a wrong method too', async () => {
    const { app } = await h.start();
    const client = new Client(app);
    const r = await client.get(api('/no/such/thing?x=1'));
    const body = expectFailureEnvelope(r, 404, 4404);
    expect(body.responseBaseInfo.status.message).toBe('No such endpoint: GET /api/no/such/thing');
    expectFailureEnvelope(await client.get('/api'), 404, 4404);
    expectFailureEnvelope(await client.post(api('/no/such/thing'), {}), 404, 4404);
    expectFailureEnvelope(await client.get(url), 404, 4404);
  });

  test('outside /api the 404 envelope too (no static apps in this build)', async () => {
    const { app } = await h.start();
    const r = await app.inject({ method: 'GET', url: '/nothing-here' });
    expect(expectFailureEnvelope(r, 404, 4404).responseBaseInfo.status.message).toBe(
      'No such endpoint: GET /nothing-here',
    );
  });
});
