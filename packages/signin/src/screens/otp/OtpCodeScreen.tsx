import { Alert, Button, MaskedText } from '@gatehouse/ui';
import { useRef, useState } from 'react';
import { useWidget } from '../../context.tsx';
import { t } from '../../messages/index.ts';
import { useLocationState, useNavigate } from '../../router.tsx';
import { routes } from '../../routes.ts';
import { CancelLink } from '../../shared/CancelLink.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { unauthorizedState, useCall } from '../../shared/useCall.ts';
import { useCodeEntry } from '../../shared/useCodeEntry.tsx';
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
  const navigate = useNavigate();
  const nav = (useLocationState() ?? {}) as OtpNavState;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [selected, setSelected] = useState<Selected>(
    nav.selectedContact ?? { type: 'REP', value: '', label: '', channel: 'rep' },
  );
  const [notice, setNotice] = useState<string | null>(null);
  const [sending, setSending] = useState<'resend' | 'voice' | null>(null);
  useHeadingFocus(headingRef);
  const channel = selected.channel;
  const outage = channel === 'sms' && (nav.carrierOutage || nav.ruleData?.carrierOutage);
  const phones = (nav.contacts?.phone ?? []).filter((c) => c.enable);
  const headingId = `${idPrefix}-code-heading`;
  // Voice is offered only when allowed (by the server, or by the host in step-up).
  const allowed = allowedChannels(idPrefix);
  const voiceAllowed = allowed.has('OTP-VOICE');
  // Spec §4 "Switching channels": the other kind of contact, only when it is allowed and has an
  // enabled contact; otherwise the link would lead back to the same screen.
  const emails = allowed.has('OTP-EMAIL') ? (nav.contacts?.email ?? []).filter((c) => c.enable) : [];
  const phoneAllowed = allowed.has('OTP-SMS') || allowed.has('OTP-VOICE');
  const otherKind = channel === 'email' ? (phoneAllowed ? phones.length : 0) : emails.length;
  const entry = useCodeEntry({
    field: 'code',
    factor: channel,
    blocked: sending !== null,
    check: (code, bindDevice) => call(checkCall[channel], { body: { securityCode: code, bindDevice } }),
  });
  const { problems, codeRef } = entry;

  /** Resend re-sends without leaving; from the text screen a voice send switches to voice. */
  async function resend(via: Exclude<Channel, 'rep'> = channel === 'rep' ? 'sms' : channel) {
    if (entry.busy || sending || channel === 'rep') return;
    setSending(via === channel ? 'resend' : 'voice');
    setNotice(null);
    const body = sendBody(via, selected.value, config.businessSMSText);
    const result = await client.call(sendCall[via], { body }).catch(() => null);
    setSending(null);
    if (result?.http === 401) {
      navigate(routes.error, { state: unauthorizedState });
    } else if (result && (result.status.code === 1200 || result.status.code === 1224)) {
      // A new code (or a new channel): the last code and its errors no longer apply.
      entry.setCode('');
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
        <p>
          <MaskedText>{tx('otp.sentTo', selected.label)}</MaskedText>
        </p>
      ) : null}
      {/* The voice code names the number called, masked as on the contact screen. */}
      {channel === 'voice' && selected.label ? (
        <p>
          <MaskedText>{tx('otp.callingTo', selected.label)}</MaskedText>
        </p>
      ) : null}
      {notice ? (
        <Alert variant="info">
          <MaskedText>{notice}</MaskedText>
        </Alert>
      ) : null}
      <form className="gh-signin__form" noValidate onSubmit={entry.submit}>
        {entry.fields({
          code: tx('otp.securityCode'),
          trust: tx('otp.trustDevice'),
          autoComplete: codeAutocomplete[channel],
        })}
        <Button
          type="submit"
          variant="primary"
          fullWidth
          loading={entry.busy}
          loadingText={tx('otp.checking')}
        >
          {tx('otp.submit')}
        </Button>
        {channel !== 'rep' ? (
          <Button variant="secondary" fullWidth loading={sending === 'resend'} onClick={() => void resend()}>
            {tx('otp.resend')}
          </Button>
        ) : null}
      </form>
      {channel === 'sms' && (voiceAllowed || phones.length > 1) ? (
        <div className="gh-otp__helper">
          {voiceAllowed ? (
            <Button variant="link" loading={sending === 'voice'} onClick={() => void resend('voice')}>
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
        {channel !== 'rep' && otherKind > 0 ? (
          <Button
            variant="link"
            onClick={() =>
              // Spec §2: the other kind of contact (from a phone code to e-mail, from e-mail to phones).
              navigate(routes.authenticatorOtp, {
                state: {
                  contacts: nav.contacts,
                  switchToEmailOTP: channel !== 'email',
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
