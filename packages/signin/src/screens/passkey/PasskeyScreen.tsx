import type { AuthenticatorItem, ClientAction, Codes } from '@gatehouse/contract/client';
import { passkeyOutcomeTables } from '@gatehouse/contract/factors/passkey-calls';
import { Button, Checkbox } from '@gatehouse/ui';
import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { CallResult } from '../../api/client.ts';
import { useWidget } from '../../context.tsx';
import { useNavigate } from '../../router.tsx';
import { isShownRoute, routes } from '../../routes.ts';
import { CancelLink } from '../../shared/CancelLink.tsx';
import { useFormErrors } from '../../shared/FormErrors.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { useAsyncError } from '../../shared/useAsyncError.ts';
import { unauthorizedState, useCall } from '../../shared/useCall.ts';
import { useContinueJourney } from '../../shared/useContinueJourney.ts';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';
import { RecentNotice } from '../authenticator/RecentNotice.tsx';
import { type PasskeyCall, passkeyType } from './calls.ts';
import { ceremonyProblem } from './ceremony.ts';
import { tx } from './messages.ts';
import { takeProof } from './proof.ts';
import { passkeyCall } from './request.ts';

/** What a refusal says when the service gives no text: 1403 not this account's, 1428 not verified or expired. */
const refusals: Record<number, 'passkey.notRecognized' | 'passkey.notVerified'> = {
  1403: 'passkey.notRecognized',
  1428: 'passkey.notVerified',
};

/** The client action of a passkey call's answer: its row of the contract's outcome table. */
const actionOf = (name: PasskeyCall, code: number): ClientAction | undefined =>
  (passkeyOutcomeTables[name].codes as Codes)[code]?.action;

type Followed = 'success' | 'refused' | 'left';

/**
 * The passkey step of LOGIN and STEPUP (decision 041b): a held conditional-mediation proof
 * completes it first, silently; otherwise (or when the proof is refused) a button runs the
 * browser's ceremony: options → navigator.credentials.get (@simplewebauthn/browser) → verification.
 * Refusals show in the widget's error pattern (an announced critical alert, 'Error: ' title, focus
 * stays on the button that retries); a cancelled prompt says so and offers to try again.
 */
export default function PasskeyScreen() {
  const { idPrefix, config, client } = useWidget();
  const navigate = useNavigate();
  const call = useCall();
  const continueJourney = useContinueJourney();
  const throwAsync = useAsyncError();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const problems = useFormErrors();
  const stepUp = config.journey === 'STEPUP';
  // The proof is taken once, on arrival (single use): step-up never has one (it is a login's).
  const [proof] = useState(() => takeProof(idPrefix));
  const [busy, setBusy] = useState<'proof' | 'ceremony' | 'other' | null>(proof && !stepUp ? 'proof' : null);
  const [cancelled, setCancelled] = useState(false);
  const [trust, setTrust] = useState(false);
  const headingId = `${idPrefix}-passkey-heading`;
  useHeadingFocus(headingRef);
  const emit = (type: string, detail: Record<string, unknown> = {}) =>
    config.onEvent?.({ type, detail: { factor: 'passkey', ...detail } });

  const refuse = (text: string) => {
    problems.fail([{ message: text }]);
    buttonRef.current?.focus();
  };

  /** An answer of a passkey call, read as the factor's table says; `silent` says no refusal. */
  function follow(name: PasskeyCall, result: CallResult, silent = false): Followed {
    emit('status', { call: name, code: result.status.code });
    const code = result.status.code;
    if (result.http === 401) {
      navigate(routes.error, { state: unauthorizedState });
      return 'left';
    }
    const given = result.envelope?.redirectPath;
    if (given !== undefined) {
      navigate(isShownRoute(given) ? given : routes.error, {
        state: { ruleData: result.envelope?.ruleData },
      });
      return 'left';
    }
    const action = actionOf(name, code);
    if (action?.kind === 'SUCCESS' && code === 1200) return 'success';
    if (action?.kind === 'REDIRECT') {
      // The block and hold answers (1204, 1491) lead to the representative, as the other factors'.
      navigate(routes[action.to], { state: { ...action.state, message: result.status.message } });
      return 'left';
    }
    if (silent) return 'refused';
    if (action?.kind !== 'ERROR') {
      throw new Error(`Unmapped status for call ${name}: code ${code}, message "${result.status.message}"`);
    }
    // The service's text in the page's language (Accept-Language), ours when it gives none.
    refuse(result.status.message || tx(refusals[code] ?? 'passkey.notVerified'));
    return 'refused';
  }

  async function verified(bindDevice: boolean, result: CallResult) {
    emit('factorVerified');
    await continueJourney({ trustDevice: bindDevice, data: result.envelope?.successData });
  }

  // A proof from the login screen's passkey autofill: completes the step without a second prompt;
  // any refusal leaves the screen as it is without one (decision 041b).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival
  useEffect(() => {
    if (!proof || stepUp) return;
    const bindDevice = config.bindDevice === true;
    void (async () => {
      const result = await passkeyCall(client, 'passkeyAuthentication', { body: { proof, bindDevice } });
      if (follow('passkeyAuthentication', result, true) === 'success') await verified(bindDevice, result);
      else setBusy(null);
    })().catch(() => setBusy(null));
  }, []);

  async function verify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    problems.clear();
    setBusy('ceremony');
    // The trust-device box is offered in the login journey only (spec §4 "Other").
    const bindDevice = !stepUp && (config.bindDevice || trust);
    try {
      const options = await passkeyCall<{ options?: PublicKeyCredentialRequestOptionsJSON }>(
        client,
        'passkeyOptions',
        { stepUp },
      );
      const followed = follow('passkeyOptions', options);
      const optionsJSON = options.envelope?.successData?.options;
      if (followed !== 'success' || !optionsJSON) {
        if (followed === 'success') refuse(tx('passkey.unavailable'));
        if (followed !== 'left') setBusy(null);
        return;
      }
      let response: Awaited<ReturnType<typeof startAuthentication>>;
      try {
        response = await startAuthentication({ optionsJSON });
      } catch (error) {
        const problem = ceremonyProblem(error);
        setBusy(null);
        if (problem === 'aborted') return;
        emit(problem === 'cancelled' ? 'passkeyCancelled' : 'passkeyUnavailable');
        setCancelled(problem === 'cancelled');
        refuse(tx(problem === 'cancelled' ? 'passkey.cancelled' : 'passkey.unavailable'));
        return;
      }
      const result = await passkeyCall(client, 'passkeyAuthentication', {
        body: { response, bindDevice },
        stepUp,
      });
      const outcome = follow('passkeyAuthentication', result);
      if (outcome === 'success') await verified(bindDevice, result);
      else if (outcome === 'refused') setBusy(null);
    } catch (error) {
      // A transport failure or an unmapped answer: the error boundary (widget spec §7).
      throwAsync(error);
    }
  }

  /** 'Try another way': the authenticator list without the passkey, its first factor's screen. */
  async function anotherWay() {
    if (busy) return;
    setBusy('other');
    const outcome = await call('authenticators');
    if (outcome.kind !== 'success') {
      if (outcome.kind === 'error') setBusy(null);
      return;
    }
    const list = (outcome.data as { authenticators?: AuthenticatorItem[] } | undefined)?.authenticators ?? [];
    navigate(routes.authenticator, {
      state: { data: { authenticators: list.filter((item) => item.type !== passkeyType) } },
    });
  }

  return (
    <section className="gh-signin__screen" aria-labelledby={headingId}>
      <ScreenHeading id={headingId} ref={headingRef} invalid={problems.invalid}>
        {tx('passkey.heading')}
      </ScreenHeading>
      <RecentNotice />
      {problems.formAlert()}
      <p>{tx('passkey.text')}</p>
      <form className="gh-signin__form" noValidate onSubmit={(event) => void verify(event)}>
        {stepUp || config.bindDevice ? null : (
          <Checkbox
            id={`${idPrefix}-passkey-trust`}
            label={tx('passkey.trustDevice')}
            checked={trust}
            onChange={(change) => setTrust(change.checked)}
          />
        )}
        <Button
          ref={buttonRef}
          type="submit"
          variant="primary"
          fullWidth
          loading={busy === 'proof' || busy === 'ceremony'}
          loadingText={tx(busy === 'proof' ? 'passkey.completing' : 'passkey.waiting')}
        >
          {tx(cancelled ? 'passkey.retry' : 'passkey.use')}
        </Button>
      </form>
      <div className="gh-signin__links">
        <Button variant="link" loading={busy === 'other'} onClick={() => void anotherWay()}>
          {tx('passkey.anotherWay')}
        </Button>
        <CancelLink />
      </div>
    </section>
  );
}
