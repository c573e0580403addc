import { Announcer } from '@gatehouse/ui';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { Route, Router, Switch, useLocation } from 'wouter';
import { useHashLocation } from '../src/router.ts';

export type Answer = { status?: number; body?: unknown };
export type Recorded = { method: string; path: string; headers: Record<string, string>; body: unknown };

export const envelope = (code: number, message: string, extra: Record<string, unknown> = {}) => ({
  responseBaseInfo: { requestId: 'REQtest', status: { code, message } },
  ...extra,
});

/**
 * The network edge: answers by "METHOD /path" (an answer or a list used in turn), records every
 * request with its headers and parsed body.
 */
export function fakeServer(answers: Record<string, Answer | Answer[]>) {
  const requests: Recorded[] = [];
  const used: Record<string, number> = {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const path = new URL(url, 'http://localhost').pathname;
      const headers = Object.fromEntries(Object.entries((init.headers as Record<string, string>) ?? {}));
      requests.push({ method, path, headers, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const key = `${method} ${path}`;
      const entry = answers[key];
      const list = Array.isArray(entry) ? entry : entry ? [entry] : [];
      const i = used[key] ?? 0;
      used[key] = i + 1;
      const answer = list[Math.min(i, list.length - 1)];
      if (!answer) return new Response(null, { status: 404 });
      if (answer.status === 204) return new Response(null, { status: 204 });
      return new Response(JSON.stringify(answer.body ?? {}), {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return requests;
}

/** Where the router is: rendered so tests can read it. */
function Where() {
  return <output data-testid="where">{useLocation()[0]}</output>;
}

/** One portal route under test, with the other routes as placeholders that say where we went. */
export function renderRoute(path: string, element: ReactElement, at = path, state?: unknown) {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the CSRF cookie.
  document.cookie = 'XSRF-TOKEN=abc.def';
  // The portal's own hash location, started at the page under test (with its navigation state).
  window.history.replaceState(state ?? null, '', `#${at}`);
  return render(
    <Announcer>
      <Router hook={useHashLocation}>
        <Switch>
          <Route path={path}>{element}</Route>
          <Route>
            <Where />
          </Route>
        </Switch>
      </Router>
    </Announcer>,
  );
}
