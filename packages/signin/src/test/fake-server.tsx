import { render } from '@testing-library/react';
import { vi } from 'vitest';
import type { FinishResult, SignInConfig } from '../config.ts';
import { SignIn } from '../SignIn.tsx';

/** One answer: an envelope (or null for 204), its HTTP status, and an optional hold. */
export type Answer = { status?: number; body: unknown; wait?: Promise<void> };

export const envelope = (code: number, message: string, extra: Record<string, unknown> = {}) => ({
  responseBaseInfo: { requestId: 'REQtest', status: { code, message } },
  ...extra,
});

export type Recorded = { method: string; path: string; body: unknown; headers: Record<string, string> };

/**
 * The network edge for widget tests: answers by `METHOD /path` (a list is used in turn, its last
 * answer repeating), records every request with its parsed body.
 */
export function fakeServer(answers: Record<string, Answer | Answer[]>) {
  const requests: Recorded[] = [];
  const used: Record<string, number> = {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const path = new URL(url, 'http://localhost').pathname;
      const key = `${init.method ?? 'GET'} ${path}`;
      requests.push({
        method: init.method ?? 'GET',
        path,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
        headers: (init.headers ?? {}) as Record<string, string>,
      });
      const given = answers[key];
      const list = Array.isArray(given) ? given : given ? [given] : [];
      const n = used[key] ?? 0;
      used[key] = n + 1;
      const answer = list[Math.min(n, list.length - 1)];
      if (!answer) return new Response(null, { status: 404 });
      await answer.wait;
      if (answer.body === null) return new Response(null, { status: answer.status ?? 204 });
      return new Response(JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  const calls = () => requests.map((r) => `${r.method} ${r.path}`);
  return { requests, calls };
}

export const api = {
  extend: 'POST /api/user/session/extend',
  update: 'POST /api/user/session/update',
  otpState: 'GET /api/user/factor/otp/state',
  authenticators: 'GET /api/user/factor/authenticators',
  sms: '/api/user/factor/otp/sms/authentication',
  voice: '/api/user/factor/otp/voice/authentication',
  email: '/api/user/factor/otp/email/authentication',
  rep: '/api/user/factor/otp/rep/authentication',
  password: 'POST /api/user/factor/password/authentication',
  session: 'POST /api/user/session/login',
  remember: '/api/user/identity/remember/username',
  logs: 'POST /api/user/cclogger/logs',
  logout: 'DELETE /api/user/session/login/',
  trusted: 'POST /api/user/identity/preferences/trustedDevice',
};

export const phone = (n: string, enable = true) => ({
  type: 'TEXT',
  value: `p${n}`,
  label: `(XXX) XXX-${n}`,
  enable,
});
export const email = (n: string, enable = true) => ({
  type: 'EMAIL',
  value: `e${n}`,
  label: `a****${n}@example.com`,
  enable,
});

/** Renders the widget with test defaults; returns the finish and cancel spies. */
export function renderWidget(config: Partial<SignInConfig> = {}) {
  const onFinish = vi.fn<(r: FinishResult) => void>();
  const onCancel = vi.fn();
  const onEvent = vi.fn();
  const view = render(
    <SignIn config={{ appId: 'APP', appName: 'App', onFinish, onCancel, onEvent, ...config }} />,
  );
  return { onFinish, onCancel, onEvent, ...view };
}

/** The server's list of a step-up when a test does not give one: every type, in the server's order. */
export const everyAuthenticator = [
  { type: 'PUSH' },
  { type: 'TOTPAUTHN' },
  { type: 'TOTPSVIP' },
  { type: 'OTP-SMS' },
  { type: 'OTP-VOICE' },
  { type: 'OTP-EMAIL' },
  { type: 'OTP-REP' },
];

/**
 * A step-up widget that reaches the OTP contact screen with these contacts and channels. The
 * server offers every method (`everyAuthenticator`), so the host's `authenticators` choose.
 */
export function stepUpAnswers(
  contacts: { phone: unknown[]; email: unknown[] },
  extra: Record<string, Answer | Answer[]> = {},
): Record<string, Answer | Answer[]> {
  return {
    [api.extend]: { body: null },
    [api.authenticators]: {
      body: envelope(1200, 'Success', { successData: { authenticators: everyAuthenticator } }),
    },
    [api.otpState]: { body: envelope(1200, 'Success', { successData: contacts }) },
    [api.update]: { body: null },
    ...extra,
  };
}
