import { API_BASE, paths } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import type { RegisteredRoute } from '../src/lib/route.ts';
import { ConsoleClient } from './support/console.ts';
import {
  Client,
  createAccount,
  expectFailureEnvelope,
  registeredRoutes,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * Every route that declares a guard (lib/route.ts `auth`, plugins/guards.ts) refuses a caller
 * without what it guards: the 401 envelope with 4401, whatever the body says (the guard runs before
 * the body is parsed), and the handler never runs (no change, no other answer).
 */
describe.each(targets)('route guards ($name)', (target) => {
  const h = useHarness(target);

  const guarded = (routes: RegisteredRoute[]) => routes.filter((r) => r.auth);
  const call = (route: RegisteredRoute) => ({
    method: route.method,
    url: `${API_BASE}${route.path}`,
    // A body the route's schema refuses: the guard answers first.
    ...(route.method === 'GET' ? {} : { body: { unexpected: 1 } }),
  });

  test('the guarded routes are the ones the app registered, the customer and console guards among them', async () => {
    const { app } = await h.start();
    const registered = registeredRoutes(app).map((r) => `${r.method} ${r.url}`);
    const routes = guarded(app.routeDocs);
    for (const route of routes) expect(registered).toContain(`${route.method} ${API_BASE}${route.path}`);
    const kinds = new Set(routes.map((r) => r.auth));
    for (const kind of ['session', 'factor', 'staff', 'staffFactor']) expect(kinds).toContain(kind);
    // The portal's route guard and the console's own member are behind one.
    expect(routes.find((r) => r.method === 'GET' && r.path === paths.sessionLogin)?.auth).toBe('session');
  });

  test('a customer route refuses a caller without a session with 4401, before the body', async () => {
    const { app } = await h.start();
    const routes = guarded(app.routeDocs).filter((r) => !r.auth?.startsWith('staff'));
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const client = new Client(app);
      const response = await client.request(call(route));
      expectFailureEnvelope(response, 401, 4401);
    }
  });

  test("a customer route refuses a stranger's cookie, and a signed-in customer's session on the console", async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'guarded1', password: 'Harbor7Lights' });
    const customer = new Client(app);
    await customer.signIn('guarded1', 'Harbor7Lights');
    const stranger = new Client(app);
    stranger.cookies.set(ctx.cookieNames.session, 'not-a-session-token');
    for (const route of guarded(app.routeDocs).filter((r) => r.auth === 'session')) {
      expectFailureEnvelope(await stranger.request(call(route)), 401, 4401);
    }
    // The customer's ET cookie under the console's cookie name opens nothing there either.
    const consoleCaller = new ConsoleClient(app);
    consoleCaller.client.cookies.set(ctx.cookieNames.staff, customer.cookies.get(ctx.cookieNames.session)!);
    for (const route of guarded(app.routeDocs).filter((r) => r.auth?.startsWith('staff'))) {
      const response = await consoleCaller.call(
        route.method as 'GET' | 'POST',
        route.path,
        route.method === 'GET' ? undefined : { unexpected: 1 },
      );
      expectFailureEnvelope(response, 401, 4401);
    }
  });

  test('a console route refuses a caller without a staff session with 4401, before the body', async () => {
    const { app } = await h.start();
    const routes = guarded(app.routeDocs).filter((r) => r.auth?.startsWith('staff'));
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const caller = new ConsoleClient(app);
      const response = await caller.call(
        route.method as 'GET' | 'POST',
        route.path,
        route.method === 'GET' ? undefined : { unexpected: 1 },
      );
      expectFailureEnvelope(response, 401, 4401);
    }
  });
});
