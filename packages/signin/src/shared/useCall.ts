import { type Callback, headers, Status } from '@gatehouse/contract/client';
import { useCallback } from 'react';
import { type CallName, callFactor } from '../api/calls.ts';
import type { CallOptions } from '../api/client.ts';
import { useWidget } from '../context.tsx';
import { type MessageKey, t } from '../messages/index.ts';
import { useNavigate } from '../router.tsx';
import { isShownRoute, routes } from '../routes.ts';
import { onDemand } from './onDemand.tsx';
import { useAsyncError } from './useAsyncError.ts';

/**
 * The status tables and the callback table are read once a call answers, never on the login
 * route's first paint: fetched when the browser is idle (SignIn prefetches them), or alongside the
 * first call at the latest.
 */
export const answerTables = onDemand(() => import('../api/answers.ts'));

/** What a screen learns from a call once the status table has been followed. */
export type Outcome =
  | { kind: 'success'; data: unknown }
  | { kind: 'navigated' }
  | { kind: 'finished' }
  | { kind: 'error'; message: MessageKey; text: string };

/** HTTP 401: no session, or it ended (design.md). Its page says so (widget spec §8 '401 Unauthorized'). */
export const unauthorizedState = { reason: 'unauthorized' } as const;

/**
 * Runs a call and follows its status table: FORWARD runs the next call, REDIRECT navigates,
 * FOLLOW goes where the answer says, CUSTOM reads the callbacks (and finishes the journey when none
 * has a page of its own), a named error comes back to the screen. An ended session (HTTP 401) goes to its own
 * page. An unmapped status or a transport failure goes to the error boundary.
 */
export function useCall() {
  const { client, config, finish } = useWidget();
  const navigate = useNavigate();
  const throwAsync = useAsyncError();

  const sessionHeaders = useCallback((): Record<string, string> => {
    const h: Record<string, string> = {
      [headers.eventType]: 'LOGIN', // widget spec §3: session login carries eventtype LOGIN
      [headers.subEventType]: config.subEvent,
    };
    if (config.sessionContext) h[headers.sessionCtx] = config.sessionContext;
    return h;
  }, [config]);

  const run = useCallback(
    async (
      name: CallName,
      options: CallOptions = {},
      navState: Record<string, unknown> = {},
      beforeForward?: () => Promise<void>,
    ): Promise<Outcome> => {
      try {
        // Session login always carries the session headers (widget spec §3, §4).
        const extra: Record<string, string> = name === 'sessionLogin' ? sessionHeaders() : {};
        const factor = callFactor(name);
        if (config.journey === 'STEPUP' && factor) extra[headers.acceptTokenType] = factor;
        const sent = { ...options, headers: { ...extra, ...options.headers } };
        const [result, { callbackScreen, ignoredFailures, interpret }] = await Promise.all([
          client.call(name, sent),
          answerTables.load(),
        ]);
        // Page events (widget spec §4): every answer's status, never a secret. The portal keeps
        // its login result (username, session and password status codes) from these.
        const body = options.body as { username?: unknown } | undefined;
        config.onEvent?.({
          type: 'status',
          detail: {
            call: name,
            code: result.status.code,
            ...(typeof body?.username === 'string' ? { username: body.username } : {}),
          },
        });
        if (result.http === 401 && !ignoredFailures[name]) {
          navigate(routes.error, { state: unauthorizedState });
          return { kind: 'navigated' };
        }
        const given = result.envelope?.redirectPath;
        const action = interpret(name, result.status, result.errorType);
        switch (action.kind) {
          case 'SUCCESS':
            // Widget spec §4 OTP flow: a success that names where to go next goes there.
            if (given !== undefined) {
              navigate(isShownRoute(given) ? given : routes.error, { state: navState });
              return { kind: 'navigated' };
            }
            return { kind: 'success', data: result.envelope?.successData };
          case 'ERROR':
            return {
              kind: 'error',
              message: action.message,
              text: action.server && result.status.message ? result.status.message : t(action.message),
            };
          case 'FORWARD':
            // The login screen saves or forgets the username between the password and the session.
            await beforeForward?.();
            return run(action.call);
          case 'FOLLOW':
            // Widget spec §7: the answer's redirect path, or the error route when it has none.
            navigate(isShownRoute(given) ? given : routes.error, {
              state: { ...navState, ruleData: result.envelope?.ruleData, message: result.status.message },
            });
            return { kind: 'navigated' };
          case 'REDIRECT': {
            // Widget spec §7: a redirect path in the answer wins over the table's screen.
            navigate(isShownRoute(given) ? given : action.to, {
              state: {
                ...navState,
                ...action.state,
                ruleData: result.envelope?.ruleData,
                message: result.status.message,
              },
            });
            return { kind: 'navigated' };
          }
          case 'CUSTOM': {
            const callbacks: Callback[] = result.envelope?.callbacks ?? [];
            const next = callbackScreen(callbacks);
            if (next) {
              navigate(next.to, next.state ? { state: next.state } : undefined);
              return { kind: 'navigated' };
            }
            if (result.status.code === Status.SUCCESS) {
              const data = result.envelope?.successData as { context?: string } | undefined;
              finish({
                journey: config.journey,
                code: result.status.code,
                message: result.status.message,
                data,
                context: data?.context,
              });
              return { kind: 'finished' };
            }
            navigate(result.status.code === Status.AUTH_NOT_COMPLETED ? routes.authenticator : routes.error, {
              state: { data: result.envelope?.successData },
            });
            return { kind: 'navigated' };
          }
        }
      } catch (error) {
        throwAsync(error);
        return { kind: 'navigated' };
      }
    },
    [client, config, finish, navigate, sessionHeaders, throwAsync],
  );
  return run;
}
