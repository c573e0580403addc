import { headers, limits } from '@gatehouse/contract/client';
import { Button, Checkbox, VisuallyHidden } from '@gatehouse/ui';
import { useEffect, useRef, useState } from 'react';
import { interpretPush } from '../../api/status-tables.ts';
import { useWidget } from '../../context.tsx';
import { t } from '../../messages/index.ts';
import { useLocationState, useNavigate } from '../../router.tsx';
import { isShownRoute, routes } from '../../routes.ts';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { usePolling } from '../../shared/polling.ts';
import { answerTables, unauthorizedState } from '../../shared/useCall.ts';
import { useCancel } from '../../shared/useCancel.ts';
import { useContinueJourney } from '../../shared/useContinueJourney.ts';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';
import { allowedChannels } from '../otp/otp-state.ts';
import { secureTransactionContent } from './device-info.ts';
import { type PushTextsKey, tx } from './messages.ts';
import './Push.css';
import { RecentNotice } from '../authenticator/RecentNotice.tsx';

/** The push init's localizedPushKey (widget spec §3: a fixed value): the device's text for a request. */
export const localizedPushKey = 'gatehouse.push.approve';

/**
 * The authenticator entry's context (an object in the authenticators list) as push init's context,
 * a string: sent as given when it is one, else as JSON.
 */
const pushContext = (context: unknown): string =>
  typeof context === 'string' ? context : JSON.stringify(context);

type PushCall = 'pushAuthentication' | 'pushStatus';
/** What a push call came to: its success data, a named error of its table, or the screen was left. */
type Reply = { kind: 'ok'; data: unknown } | { kind: 'error'; name: string } | { kind: 'left' };
type ErrorKind = 'failed' | 'expired' | 'cannotConfirm' | 'limit';
type View =
  | { name: 'start' }
  | { name: 'sent'; id: string; number?: string; deadline?: number }
  | { name: 'error'; text: PushTextsKey; resend: boolean };

/** The page event of each error state (docs/embedding.md, onEvent). */
const errorEvents: Record<ErrorKind, string> = {
  failed: 'pushFailed',
  expired: 'pushExpired',
  cannotConfirm: 'pushCannotConfirm',
  limit: 'pushLimit',
};

/**
 * Widget spec §2 "Push screen", §4 "Push states": send a notification, poll its status every
 * 3000 ms (shared/polling.ts), continue the journey when it is approved, show push denied when it
 * is refused or reported, and the error states otherwise (decision 022).
 */
export function PushScreen() {
  const { idPrefix, config, client } = useWidget();
  const navigate = useNavigate();
  const continueJourney = useContinueJourney();
  const cancel = useCancel();
  const nav = useLocationState<{ context?: unknown }>() ?? {};
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [view, setView] = useState<View>({ name: 'start' });
  /** Changes with every state, so the heading takes focus again (spec §4 "Other": after 400 ms). */
  const [step, setStep] = useState(0);
  const [trust, setTrust] = useState(false);
  const [busy, setBusy] = useState(false);
  const sends = useRef(0);
  /** Approved: the journey goes on, and no late timer or answer may show an error any more. */
  const done = useRef(false);
  /** Counts Cancels: a push that answers after a Cancel is dropped (step-up stays on this screen). */
  const visit = useRef(0);
  useHeadingFocus(headingRef, undefined, step);
  const stepUp = config.journey === 'STEPUP';
  // The trust-device box is offered in the login journey only (spec §4 "Other"); config bindDevice asks for the host.
  const bindDevice = !stepUp && (config.bindDevice || trust);
  const appName = config.pushAppName ?? config.businessSMSText ?? config.appName;
  const headingId = `${idPrefix}-push-heading`;
  const emit = (type: string, detail: Record<string, unknown> = {}) =>
    config.onEvent?.({ type, detail: { factor: 'push', ...detail } });
  const show = (next: View) => {
    setView(next);
    setStep((s) => s + 1);
  };

  // The first state's page event, once per visit (the others fire as each state begins).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival
  useEffect(() => emit('pushStart'), []);

  /** One push call, read with its outcome table like every call (useCall), but its failures stay here. */
  async function ask(name: PushCall, body: object, signal?: AbortSignal): Promise<Reply> {
    const [result, { interpret }] = await Promise.all([
      client.call(name, {
        body,
        // Step-up names the factor in the token type header (widget spec §4), as useCall does.
        ...(stepUp ? { headers: { [headers.acceptTokenType]: 'PUSH' } } : {}),
        ...(signal ? { signal } : {}),
      }),
      answerTables.load(),
    ]);
    config.onEvent?.({ type: 'status', detail: { call: name, code: result.status.code } });
    if (result.http === 401) {
      navigate(routes.error, { state: unauthorizedState });
      return { kind: 'left' };
    }
    // An unmapped status throws: a failed poll (tried again), or a push that did not start.
    const action = interpret(name, result.status, result.errorType);
    if (action.kind === 'ERROR') return { kind: 'error', name: action.message };
    const given = result.envelope?.redirectPath;
    if (given !== undefined || action.kind === 'REDIRECT') {
      // Widget spec §4: "A server redirect navigates to the given path" (the error route if it is
      // not a screen); a table's own screen otherwise.
      const to = given === undefined && action.kind === 'REDIRECT' ? action.to : given;
      navigate(isShownRoute(to) ? to : routes.error, {
        state: { ...(action.kind === 'REDIRECT' ? action.state : {}), ruleData: result.envelope?.ruleData },
      });
      return { kind: 'left' };
    }
    return { kind: 'ok', data: result.envelope?.successData };
  }

  function fail(kind: ErrorKind) {
    if (done.current) return;
    // Spec §4: from the third send the error is the limit message, and resend is no longer offered.
    const limited = kind === 'limit' || sends.current >= limits.pushSendLimit;
    const text: PushTextsKey = limited ? 'push.limit' : kind === 'expired' ? 'push.expired' : 'push.failed';
    emit(errorEvents[limited ? 'limit' : kind], { sends: sends.current });
    show({ name: 'error', text, resend: !limited });
  }

  async function send() {
    if (busy) return;
    setBusy(true);
    const started = visit.current;
    const body = {
      transactionDescription: tx(stepUp ? 'push.descriptionStepUp' : 'push.descriptionLogin'),
      secureTransactionContent: secureTransactionContent(config.journey),
      localizedPushKey,
      ...(nav.context ? { context: pushContext(nav.context) } : {}),
    };
    // Spec §4: a push that fails to start (refused, limit, no answer) shows the limit error, no resend.
    const reply = await ask('pushAuthentication', body).catch((): Reply => ({ kind: 'error', name: '' }));
    setBusy(false);
    if (reply.kind === 'left' || started !== visit.current) return;
    const data =
      reply.kind === 'ok' ? (reply.data as { id?: unknown; number?: unknown; expiresAt?: unknown }) : null;
    if (typeof data?.id !== 'string') return fail('limit');
    sends.current += 1;
    // An expiry already past on arrival is this device's clock running ahead of the server's: the
    // server's EXPIRED_PENDING ends that push instead.
    const expires = typeof data.expiresAt === 'string' ? Date.parse(data.expiresAt) : Number.NaN;
    const deadline = expires > Date.now() ? expires + limits.pushPollMs : undefined;
    const number = typeof data.number === 'string' ? data.number : undefined;
    emit('pushSent', { sends: sends.current, numberMatching: number !== undefined });
    show({
      name: 'sent',
      id: data.id,
      ...(number ? { number } : {}),
      // Past the push's expiry, with one poll interval of grace, nothing polls any more.
      ...(deadline === undefined ? {} : { deadline }),
    });
  }

  const sentId = view.name === 'sent' ? view.id : null;
  usePolling<Reply>(sentId !== null, {
    poll: async (signal) => {
      const reply = await ask('pushStatus', { id: sentId, bindDevice }, signal);
      // A status that is not a string is no answer: the poll failed (tried again, spec §4).
      if (reply.kind === 'ok' && typeof (reply.data as { status?: unknown })?.status !== 'string') {
        throw new Error('push status without a status');
      }
      return reply;
    },
    isFinal: (reply) =>
      reply.kind !== 'ok' || interpretPush((reply.data as { status: string }).status) !== 'poll',
    onResult: (reply) => {
      if (reply.kind === 'left' || done.current) return;
      if (reply.kind === 'error') return fail('cannotConfirm');
      const { status } = reply.data as { status: string };
      switch (interpretPush(status)) {
        case 'continue':
          done.current = true;
          emit('factorVerified');
          void continueJourney({ trustDevice: bindDevice, data: reply.data });
          return;
        case 'denied':
          done.current = true;
          emit('pushDenied', { status });
          navigate(routes.authenticatorPushDenied, { state: { status } });
          return;
        case 'failure':
          return fail(status === 'COMPLETED_FAILURE' ? 'failed' : 'expired');
        default:
          return;
      }
    },
    // Spec §4: a failed poll is tried again up to two times, then 'cannot confirm'.
    onGiveUp: () => fail('cannotConfirm'),
  });

  // The push's expiry: stop polling and say so, so that a tab left open does not poll on.
  const deadline = view.name === 'sent' ? view.deadline : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: one timer per push sent
  useEffect(() => {
    if (deadline === undefined) return;
    const timer = window.setTimeout(() => fail('expired'), Math.max(0, deadline - Date.now()));
    return () => window.clearTimeout(timer);
  }, [deadline, sentId]);

  /** 'Try another way' (decision 022): the one-time codes when the server allows them, else the representative. */
  const anotherWay = () =>
    navigate(allowedChannels(idPrefix).size > 0 ? routes.authenticatorOtp : routes.authenticatorRep, {
      state: { backButtonEnabled: true },
    });

  const heading =
    view.name === 'start'
      ? tx('push.startHeading', appName)
      : view.name === 'sent'
        ? tx('push.sentHeading')
        : tx(view.text);
  const sentText = tx('push.sentText', appName);
  // The number goes in its own element: split the text where it stands, in any language.
  const [beforeNumber, afterNumber] = tx('push.number', '\u0000').split('\u0000');
  // What the live region says for each state (the heading also takes focus after 400 ms).
  const announcement =
    view.name === 'sent'
      ? [heading, sentText, view.number ? tx('push.number', view.number) : ''].join(' ').trim()
      : view.name === 'error'
        ? heading
        : '';

  return (
    <section className="gh-signin__screen" aria-labelledby={headingId}>
      <ScreenHeading id={headingId} ref={headingRef} invalid={view.name === 'error'}>
        {heading}
      </ScreenHeading>
      <RecentNotice />
      <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" data-push-live="">
        {announcement}
      </VisuallyHidden>
      {view.name === 'start' ? (
        <div className="gh-push__actions">
          {stepUp || config.bindDevice ? null : (
            <Checkbox
              id={`${idPrefix}-push-trust`}
              label={tx('push.trustDevice')}
              checked={trust}
              onChange={(change) => setTrust(change.checked)}
            />
          )}
          <Button
            variant="primary"
            fullWidth
            loading={busy}
            loadingText={tx('push.sending')}
            onClick={() => void send()}
          >
            {tx('push.send')}
          </Button>
        </div>
      ) : null}
      {view.name === 'sent' ? (
        <>
          <p>{sentText}</p>
          {view.number ? (
            <p className="gh-push__match">
              {beforeNumber}
              <strong className="gh-push__number">{view.number}</strong>
              {afterNumber}
            </p>
          ) : null}
        </>
      ) : null}
      {view.name === 'error' ? (
        <div className="gh-push__actions">
          {view.resend ? (
            <Button
              variant="primary"
              fullWidth
              loading={busy}
              loadingText={tx('push.sending')}
              onClick={() => void send()}
            >
              {tx('push.resend')}
            </Button>
          ) : null}
          <Button variant={view.resend ? 'secondary' : 'primary'} fullWidth onClick={anotherWay}>
            {tx('push.anotherWay')}
          </Button>
        </div>
      ) : null}
      <p className="gh-signin__links">
        <Button
          variant="link"
          onClick={() => {
            // Spec §4 "Cancel"; in step-up the host decides what follows, and nothing polls meanwhile.
            visit.current += 1;
            if (view.name === 'sent') setView({ name: 'start' });
            cancel();
          }}
        >
          {t('page.cancel')}
        </Button>
      </p>
    </section>
  );
}
