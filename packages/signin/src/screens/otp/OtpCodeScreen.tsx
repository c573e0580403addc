import { limits } from '@gatehouse/contract/client';
import { Alert, Button, Checkbox, CodeInput } from '@gatehouse/ui';
import { type FormEvent, useRef, useState } from 'react';
import { useWidget } from '../../context.tsx';
import { t } from '../../messages/index.ts';
import { useLocationState, useNavigate } from '../../router.tsx';
import { routes } from '../../routes.ts';
import { CancelLink } from '../../shared/CancelLink.tsx';
import { useFormErrors } from '../../shared/FormErrors.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { unauthorizedState, useCall } from '../../shared/useCall.ts';
import { useContinueJourney } from '../../shared/useContinueJourney.ts';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';
import { type OtpTextsKey, tx } from './messages.ts';
import {
  allowedChannels,
  type Channel,
  checkCall,
  type OtpNavState,
  type Selected,
  sendBody,
  sendCall,
} from './otp-state.ts';
import './Otp.css';

const headings: Record<Channel, OtpTextsKey> = {
  sms: 'otp.codeHeading.sms',
  voice: 'otp.codeHeading.voice',
  email: 'otp.codeHeading.email',
  rep: 'otp.codeHeading.rep',
};

/**
 * Channels whose code arrives in a message on this device, where the browser or phone may offer
 * it: autocomplete="one-time-code". A code read out (voice, representative) keeps the spec's
 * autocomplete off (docs/decisions/013-one-time-code-autocomplete.md).
 */
const codeAutocomplete: Record<Channel, 'one-time-code' | 'off'> = {
  sms: 'one-time-code',
  email: 'one-time-code',
  voice: 'off',
  rep: 'off',
};

/** Widget spec §2 "OTP code screen", §4 "OTP flow", §5 code rules. */
export function OtpCodeScreen() {
  const { idPrefix, config, client } = useWidget();
  const call = useCall();
  const continueJourney = useContinueJourney();
  const navigate = useNavigate();
  const nav = (useLocationState() ?? {}) as OtpNavState;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [selected, setSelected] = useState<Selected>(
    nav.selectedContact ?? { type: 'REP', value: '', label: '', channel: 'rep' },
  );
  const [code, setCode] = useState('');
  const problems = useFormErrors();
  const [notice, setNotice] = useState<string | null>(null);
  const [trust, setTrust] = useState(false);
  const [busy, setBusy] = useState<'check' | 'resend' | 'voice' | null>(null);
  useHeadingFocus(headingRef);
  const channel = selected.channel;
  const outage = channel === 'sms' && (nav.carrierOutage || nav.ruleData?.carrierOutage);
  const phones = (nav.contacts?.phone ?? []).filter((c) => c.enable);
  const headingId = `${idPrefix}-code-heading`;
  const codeId = `${idPrefix}-code`;
  // Voice is offered only when allowed (by the server, or by the host in step-up).
  const voiceAllowed = allowedChannels(idPrefix).has('OTP-VOICE');
  /** A failed submit: the summary is announced, the field says why and takes focus (spec §5). */
  const failOnCode = (message: string) => {
    problems.fail([{ fieldId: codeId, message }]);
    codeRef.current?.focus();
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (!code.trim()) return failOnCode(t('error.emptyCode'));
    if (code.length !== limits.codeLength) return failOnCode(t('error.shortCode'));
    problems.clear();
    setBusy('check');
    // Config bindDevice: the host asks to bind (no box shown); otherwise the customer's box.
    const bindDevice = config.journey === 'LOGIN' && (config.bindDevice || trust);
    const outcome = await call(checkCall[channel], { body: { securityCode: code, bindDevice } });
    if (outcome.kind === 'success') {
      config.onEvent?.({ type: 'factorVerified', detail: { factor: channel } });
      await continueJourney({ trustDevice: bindDevice, data: outcome.data });
    } else if (outcome.kind === 'error') {
      // Spec §5: a server error on the field replaces the message with the server's text.
      config.onEvent?.({ type: 'invalidCode', detail: { factor: channel } });
      setCode('');
      failOnCode(outcome.text);
    }
    setBusy(null);
  }

  /** Resend re-sends without leaving; from the text screen a voice send switches to voice. */
  async function resend(via: Exclude<Channel, 'rep'> = channel === 'rep' ? 'sms' : channel) {
    if (busy || channel === 'rep') return;
    setBusy(via === channel ? 'resend' : 'voice');
    setNotice(null);
    const body = sendBody(via, selected.value, config.businessSMSText);
    const result = await client.call(sendCall[via], { body }).catch(() => null);
    setBusy(null);
    if (result?.http === 401) {
      navigate(routes.error, { state: unauthorizedState });
    } else if (result && (result.status.code === 1200 || result.status.code === 1224)) {
      // A new code (or a new channel): the last code and its errors no longer apply.
      setCode('');
      problems.clear();
      setSelected({ ...selected, channel: via });
      setNotice(tx('otp.resent'));
      codeRef.current?.focus();
    } else if (result && result.status.code === 1491) {
      navigate(routes.authenticatorRep, { state: { reason: 'limit' } });
    } else {
      setNotice(result?.status.message ?? t('page.cantComplete'));
    }
  }

  return (
    <section className="gh-signin__screen" aria-labelledby={headingId}>
      {nav.backButtonEnabled !== false ? (
        <Button variant="link" className="gh-otp__back" onClick={() => navigate(-1)}>
          {tx('otp.back')}
        </Button>
      ) : null}
      <ScreenHeading id={headingId} ref={headingRef} invalid={problems.invalid}>
        {tx(headings[channel])}
      </ScreenHeading>
      {problems.formAlert()}
      {outage ? (
        <Alert variant="warning" title={tx('otp.outage')}>
          {phones.length > 1 ? tx('otp.outageSeveral') : tx('otp.outageOne')}
        </Alert>
      ) : null}
      {(channel === 'sms' || channel === 'email') && selected.label ? (
        <p>{tx('otp.sentTo', selected.label)}</p>
      ) : null}
      {notice ? <Alert variant="info">{notice}</Alert> : null}
      <form className="gh-signin__form" noValidate onSubmit={submit}>
        <CodeInput
          id={codeId}
          ref={codeRef}
          label={tx('otp.securityCode')}
          required
          autoComplete={codeAutocomplete[channel]}
          value={code}
          onValueChange={setCode}
          error={problems.onField(codeId)}
        />
        {config.journey === 'LOGIN' && !config.bindDevice ? (
          <Checkbox
            id={`${idPrefix}-trust`}
            label={tx('otp.trustDevice')}
            checked={trust}
            onChange={(change) => setTrust(change.checked)}
          />
        ) : null}
        <Button
          type="submit"
          variant="primary"
          fullWidth
          loading={busy === 'check'}
          loadingText={tx('otp.checking')}
        >
          {tx('otp.submit')}
        </Button>
        {channel !== 'rep' ? (
          <Button variant="secondary" fullWidth loading={busy === 'resend'} onClick={() => void resend()}>
            {tx('otp.resend')}
          </Button>
        ) : null}
      </form>
      {channel === 'sms' && (voiceAllowed || phones.length > 1) ? (
        <div className="gh-otp__helper">
          {voiceAllowed ? (
            <Button variant="link" loading={busy === 'voice'} onClick={() => void resend('voice')}>
              {tx('otp.callInstead')}
            </Button>
          ) : null}
          {phones.length > 1 ? (
            <Button
              variant="link"
              onClick={() => navigate(routes.authenticatorOtp, { state: { contacts: nav.contacts } })}
            >
              {tx('otp.anotherPhone')}
            </Button>
          ) : null}
        </div>
      ) : null}
      <div className="gh-signin__links">
        {channel !== 'rep' && (nav.contacts?.email.length ?? 0) + phones.length > 1 ? (
          <Button
            variant="link"
            onClick={() =>
              // Spec §2: the other kind of contact (from a phone code to e-mail, from e-mail to phones).
              navigate(routes.authenticatorOtp, {
                state: {
                  contacts: nav.contacts,
                  switchToEmailOTP: channel !== 'email' && (nav.contacts?.email.length ?? 0) > 0,
                },
              })
            }
          >
            {tx('otp.anotherWay')}
          </Button>
        ) : null}
        {channel !== 'rep' ? (
          <Button
            variant="link"
            onClick={() => navigate(routes.authenticatorRep, { state: { backButtonEnabled: true } })}
          >
            {tx('otp.cantReceive')}
          </Button>
        ) : null}
        <CancelLink />
      </div>
    </section>
  );
}
