import { createHash } from 'node:crypto';
import { paths } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import {
  api,
  Client,
  code,
  createAccount,
  expectFailureEnvelope,
  json,
  setCookieLine,
  targets,
  useHarness,
} from './support/harness.ts';

const PASSWORD = 'Harbor7Lights';
const url = api(paths.rememberUsername);
type Saved = { friendlyName: string; value: string; index: number; id: string };
type Usernames = { usernames: Saved[] };

const put = (client: Client, username: string, operation: 'ADD' | 'DELETE') =>
  client.request({ method: 'PUT', url, body: { username, operation } });
const list = async (client: Client) => {
  const r = await client.get(url);
  expect(r.statusCode).toBe(200);
  return json<Usernames>(r);
};
const names = async (client: Client) => (await list(client)).successData!.usernames.map((u) => u.value);
/** The body without its request id: to compare two answers. */
const bare = (r: Awaited<ReturnType<Client['get']>>) => {
  const body = json(r);
  return { ...body, responseBaseInfo: { ...body.responseBaseInfo, requestId: '' } };
};

describe.each(targets)('remember username ($name)', (target) => {
  const h = useHarness(target);

  test('a device with nothing saved: 1200 "User Not Identified" and an empty list', async () => {
    const { app } = await h.start();
    const r = await new Client(app).get(url);
    expect(r.statusCode).toBe(200);
    const body = json<Usernames>(r);
    expect(body.responseBaseInfo.status).toEqual({ code: 1200, message: 'User Not Identified' });
    expect(body.successData).toEqual({ usernames: [] });
    expect(body.errorType).toBeUndefined();
  });

  test('ADD in the login transaction: then GET says "User Identified" with the entry', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'AlexDemo1', password: PASSWORD });
    const client = new Client(app);
    expect(code(await client.signInPassword('alexdemo1', PASSWORD))).toBe(1200);
    const added = await put(client, 'alexdemo1', 'ADD');
    expect(added.statusCode).toBe(200);
    expect(json(added).responseBaseInfo.status).toEqual({
      code: 1200,
      message: 'The username is saved on this device.',
    });

    const body = await list(client);
    expect(body.responseBaseInfo.status).toEqual({ code: 1200, message: 'User Identified' });
    const [entry, ...rest] = body.successData!.usernames;
    expect(rest).toEqual([]);
    // Spelled as the account spells it, not as typed.
    expect(entry).toMatchObject({ friendlyName: 'AlexDemo1', value: 'AlexDemo1', index: 0 });
    expect(entry!.id).toMatch(/^[0-9a-f-]{36}$/);

    // Saved on the device, not in the session: still there after sign-out, on the same browser.
    expect(code(await client.sessionLogin())).toBe(1200);
    await client.delete(api(paths.sessionLogout));
    expect(await names(client)).toEqual(['AlexDemo1']);
  });

  test('ADD works in every live session state: password, factor and authenticated', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'pwdstate01', password: PASSWORD });
    await createAccount(ctx, { username: 'factorst01', password: PASSWORD, secondFactor: true });
    await createAccount(ctx, { username: 'signedin01', password: PASSWORD });
    const client = new Client(app);

    await client.signInPassword('pwdstate01', PASSWORD);
    expect(code(await put(client, 'pwdstate01', 'ADD'))).toBe(1200);
    h.clock.advance(1000);

    await client.signInPassword('factorst01', PASSWORD);
    expect(code(await client.sessionLogin())).toBe(1201);
    expect(code(await put(client, 'factorst01', 'ADD'))).toBe(1200);
    h.clock.advance(1000);

    await client.signIn('signedin01', PASSWORD);
    expect(code(await put(client, 'signedin01', 'ADD'))).toBe(1200);
    expect(await names(client)).toEqual(['signedin01', 'factorst01', 'pwdstate01']);
  });

  test('ADD needs a live session of that same account: 1403, and says nothing about other usernames', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    await createAccount(ctx, { username: 'mallory01', password: PASSWORD });

    // No session at all.
    const anonymous = new Client(app);
    const none = await put(anonymous, 'alexdemo1', 'ADD');
    const body = expectFailureEnvelope(none, 200, 1403);
    expect(body.responseBaseInfo.status.message).toBe(
      'A username can only be saved on this device while signing in with it.',
    );

    // A session of another account: an existing username and an unknown one get the same answer.
    const client = new Client(app);
    await client.signIn('mallory01', PASSWORD);
    const existing = await put(client, 'alexdemo1', 'ADD');
    const unknown = await put(client, 'nobody0001', 'ADD');
    expect(code(existing)).toBe(1403);
    expect(bare(existing)).toEqual(bare(unknown));
    expect(bare(existing)).toEqual(bare(none));

    // An ended session no longer counts.
    await client.delete(api(paths.sessionLogout));
    expect(code(await put(client, 'mallory01', 'ADD'))).toBe(1403);
    const expired = new Client(app);
    await expired.signInPassword('alexdemo1', PASSWORD);
    h.clock.advance(31 * 60_000);
    expect(code(await put(expired, 'alexdemo1', 'ADD'))).toBe(1403);

    expect(await h.db.selectFrom('remembered_usernames').selectAll().execute()).toEqual([]);
  });

  test('at most 5 per device: the least recently used drops; REMEMBER_MAX moves the limit', async () => {
    const { app, ctx } = await h.start();
    const client = new Client(app);
    const usernames = Array.from({ length: 6 }, (_, i) => `saveduser${i + 1}`);
    for (const username of usernames) {
      await createAccount(ctx, { username, password: PASSWORD });
      await client.signInPassword(username, PASSWORD);
      expect(code(await put(client, username, 'ADD'))).toBe(1200);
      h.clock.advance(1000);
    }
    const body = await list(client);
    expect(body.successData!.usernames.map((u) => [u.value, u.index])).toEqual([
      ['saveduser6', 0],
      ['saveduser5', 1],
      ['saveduser4', 2],
      ['saveduser3', 3],
      ['saveduser2', 4],
    ]);

    const small = await h.start({ REMEMBER_MAX: '2' });
    const other = new Client(small.app);
    for (const username of usernames.slice(0, 3)) {
      await other.signInPassword(username, PASSWORD);
      await put(other, username, 'ADD');
      h.clock.advance(1000);
    }
    expect(await names(other)).toEqual(['saveduser3', 'saveduser2']);
  });

  test('ADD again moves the entry to the front, without a duplicate', async () => {
    const { app, ctx } = await h.start();
    const client = new Client(app);
    for (const username of ['firstuser1', 'seconduser1']) {
      await createAccount(ctx, { username, password: PASSWORD });
      await client.signInPassword(username, PASSWORD);
      await put(client, username, 'ADD');
      h.clock.advance(1000);
    }
    await client.signInPassword('firstuser1', PASSWORD);
    expect(code(await put(client, 'FIRSTUSER1', 'ADD'))).toBe(1200);
    expect(await names(client)).toEqual(['firstuser1', 'seconduser1']);
  });

  test('DELETE removes the username from this device only, needs no session, and answers 1200 either way', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    await createAccount(ctx, { username: 'keptuser1', password: PASSWORD });
    const laptop = new Client(app);
    const phone = new Client(app);
    for (const device of [laptop, phone]) {
      for (const username of ['alexdemo1', 'keptuser1']) {
        await device.signInPassword(username, PASSWORD);
        await put(device, username, 'ADD');
        h.clock.advance(1000);
      }
      await device.delete(api(paths.sessionLogout));
    }
    expect(laptop.cookies.has('ET')).toBe(false);

    const removed = await put(laptop, 'ALEXDEMO1', 'DELETE');
    expect(removed.statusCode).toBe(200);
    expect(json(removed).responseBaseInfo.status).toEqual({
      code: 1200,
      message: 'The username is not saved on this device.',
    });
    expect(await names(laptop)).toEqual(['keptuser1']);
    expect(await names(phone)).toEqual(['keptuser1', 'alexdemo1']);

    // Not saved here, or no such account: the same answer.
    const again = await put(laptop, 'alexdemo1', 'DELETE');
    const unknown = await put(laptop, 'nobody0001', 'DELETE');
    expect(code(again)).toBe(1200);
    expect(json(again).responseBaseInfo.status).toEqual(json(unknown).responseBaseInfo.status);
    expect(code(await put(new Client(app), 'keptuser1', 'DELETE'))).toBe(1200);
    expect(await names(laptop)).toEqual(['keptuser1']);
  });

  test('POST marks a saved username as the most recently used; 1403 for one this device has not saved', async () => {
    const { app, ctx } = await h.start();
    const client = new Client(app);
    for (const username of ['olderuser1', 'neweruser1']) {
      await createAccount(ctx, { username, password: PASSWORD });
      await client.signInPassword(username, PASSWORD);
      await put(client, username, 'ADD');
      h.clock.advance(1000);
    }
    await createAccount(ctx, { username: 'unsaved001', password: PASSWORD });
    expect(await names(client)).toEqual(['neweruser1', 'olderuser1']);

    const used = await client.post(url, { username: 'OlderUser1' });
    expect(used.statusCode).toBe(200);
    expect(code(used)).toBe(1200);
    const body = await list(client);
    expect(body.successData!.usernames.map((u) => [u.value, u.index])).toEqual([
      ['olderuser1', 0],
      ['neweruser1', 1],
    ]);

    const unsaved = await client.post(url, { username: 'unsaved001' });
    const unknown = await client.post(url, { username: 'nobody0001' });
    expect(expectFailureEnvelope(unsaved, 200, 1403).responseBaseInfo.status.message).toBe(
      'There is no such saved username on this device.',
    );
    expect(bare(unsaved)).toEqual(bare(unknown));
    // Another device has saved nothing.
    expect(code(await new Client(app).post(url, { username: 'olderuser1' }))).toBe(1403);
  });

  test('an entry follows a username change', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'oldname01', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('oldname01', PASSWORD);
    await put(client, 'oldname01', 'ADD');
    const changed = await client.request({
      method: 'PUT',
      url: api(paths.changeUsername),
      body: { username: 'Renamed2024x', password: PASSWORD },
    });
    expect(code(changed)).toBe(1200);
    const [entry] = (await list(client)).successData!.usernames;
    expect(entry).toMatchObject({ friendlyName: 'Renamed2024x', value: 'Renamed2024x', index: 0 });
    expect(code(await client.post(url, { username: 'renamed2024x' }))).toBe(1200);
    expect(code(await client.post(url, { username: 'oldname01' }))).toBe(1403);
  });

  test('the device is the GH_DEVICE cookie, stored only as its SHA-256; ADD sets the cookie when it is missing', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    client.cookies.delete('GH_DEVICE');
    const added = await put(client, 'alexdemo1', 'ADD');
    expect(code(added)).toBe(1200);
    const line = setCookieLine(added, 'GH_DEVICE')!;
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; Max-Age=34560000/);
    const device = client.cookies.get('GH_DEVICE')!;
    expect(device.length).toBeGreaterThanOrEqual(32);

    const rows = await h.db.selectFrom('remembered_usernames').selectAll().execute();
    expect(rows.length).toBe(1);
    expect(rows[0]!.device_key).toBe(createHash('sha256').update(device).digest('hex'));
    expect(await names(client)).toEqual(['alexdemo1']);

    // The same cookie in another client is the same device; without it, another device.
    const copy = new Client(app);
    copy.cookies.set('GH_DEVICE', device);
    expect(await names(copy)).toEqual(['alexdemo1']);
    expect(await names(new Client(app))).toEqual([]);
  });

  test('PUT and POST need the CSRF header; the body is checked against the contract', async () => {
    const { app } = await h.start();
    const client = new Client(app);
    expectFailureEnvelope(
      await client.request({ method: 'PUT', url, body: { username: 'x', operation: 'DELETE' }, csrf: false }),
      403,
      4403,
    );
    expectFailureEnvelope(
      await client.request({ method: 'POST', url, body: { username: 'x' }, csrf: false }),
      403,
      4403,
    );
    const bad = await client.request({
      method: 'PUT',
      url,
      body: { username: 'alexdemo1', operation: 'SAVE' },
    });
    expect(expectFailureEnvelope(bad, 400, 4400).responseBaseInfo.status.message).toMatch(
      /^The request is not valid: operation: /,
    );
  });
});
