import type { Contact } from '@gatehouse/contract/client';
import { Alert, Button, MaskedText, RadioGroup } from '@gatehouse/ui';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { useWidget } from '../../context.tsx';
import { useLocationState, useNavigate } from '../../router.tsx';
import { isShownRoute, routes } from '../../routes.ts';
import { CancelLink } from '../../shared/CancelLink.tsx';
import { useFormErrors } from '../../shared/FormErrors.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { Loading } from '../../shared/Loading.tsx';
import { unauthorizedState, useCall } from '../../shared/useCall.ts';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';
import { type OtpTextsKey, tx } from './messages.ts';
import {
  allowedChannels,
  type Channel,
  type Contacts,
  type OtpNavState,
  sendBody,
  sendCall,
} from './otp-state.ts';
import './Otp.css';
import { RecentNotice } from '../authenticator/RecentNotice.tsx';

/** Widget spec §2 "OTP contact screen" and §4 "Switching channels". */
export function OtpContactScreen() {
  const { idPrefix, client, config } = useWidget();
  const call = useCall();
  const navigate = useNavigate();
  const nav = (useLocationState() ?? {}) as OtpNavState;
  // One screen on two routes (/otp, /authenticator/otp): a redirect from one to the other keeps it
  // mounted, and the new route's contacts are still to be read.
  const [path] = useLocation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [contacts, setContacts] = useState<Contacts | null>(nav.contacts ?? null);
  const [kind, setKind] = useState<'phone' | 'email'>(nav.switchToEmailOTP ? 'email' : 'phone');
  const [switched, setSwitched] = useState(false);
  const [choice, setChoice] = useState<string>('');
  const [busy, setBusy] = useState<Channel | null>(null);
  const problems = useFormErrors();
  useHeadingFocus(headingRef, undefined, kind);
  const allowed = allowedChannels(idPrefix);
  const phoneAllowed = allowed.has('OTP-SMS') || allowed.has('OTP-VOICE');
  const emailAllowed = allowed.has('OTP-EMAIL');

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new route of this screen reads the contacts again.
  useEffect(() => {
    if (contacts) return;
    let live = true;
    client
      .call<Contacts>('otpState', { query: { timestamp: String(Date.now()) } })
      .then((result) => {
        if (!live) return;
        const data = result.envelope?.successData;
        const given = result.envelope?.redirectPath;
        if (result.http === 401) {
          // The session ended: its page, not the representative (widget spec §8).
          navigate(routes.error, { state: unauthorizedState });
        } else if (given !== undefined) {
          // Spec §7: the redirect path, or the error route when it is not a screen of ours.
          navigate(isShownRoute(given) ? given : routes.error, {
            state: { ruleData: result.envelope?.ruleData, otpCallRep: true },
          });
        } else if (data) setContacts({ phone: data.phone ?? [], email: data.email ?? [] });
        else navigate(routes.authenticatorRep, { state: { otpCallRep: true } });
      })
      .catch(() => live && navigate(routes.authenticatorRep, { state: { otpCallRep: true } }));
    return () => {
      live = false;
    };
  }, [client, contacts, navigate, path]);

  const usable = (list: Contact[] | undefined) => (list ?? []).filter((c) => c.enable);
  const phones = contacts && phoneAllowed ? usable(contacts.phone) : [];
  const emails = contacts && emailAllowed ? usable(contacts.email) : [];
  const current = kind === 'phone' ? phones : emails;
  const other = kind === 'phone' ? emails : phones;
  const disabled = contacts
    ? (kind === 'phone' ? contacts.phone : contacts.email).filter((c) => !c.enable)
    : [];

  useEffect(() => {
    if (!contacts) return;
    // Spec §4: nothing usable (or a step-up that allows none) goes to the representative page.
    if (phones.length === 0 && emails.length === 0) {
      navigate(routes.authenticatorRep, { replace: true });
      return;
    }
    if (current.length === 0) setKind(kind === 'phone' ? 'email' : 'phone');
  }, [contacts, phones.length, emails.length, current.length, kind, navigate]);

  useEffect(() => {
    setChoice(current[0]?.value ?? '');
  }, [current[0]?.value]);

  if (!contacts || current.length === 0) return <Loading />;
  const selected = current.find((c) => c.value === choice) ?? current[0]!;

  async function send(channel: Exclude<Channel, 'rep'>) {
    if (busy) return;
    setBusy(channel);
    problems.clear();
    const body = sendBody(channel, selected.value, config.businessSMSText);
    const outcome = await call(
      sendCall[channel],
      { body },
      {
        contacts,
        selectedContact: { type: selected.type, value: selected.value, label: selected.label, channel },
        backButtonEnabled: true,
      },
    );
    setBusy(null);
    if (outcome.kind === 'error') problems.fail([{ message: outcome.text }]);
  }

  const prompt: OtpTextsKey =
    kind === 'phone'
      ? current.length > 1
        ? 'otp.whichNumber'
        : 'otp.oneNumber'
      : current.length > 1
        ? 'otp.whichEmail'
        : 'otp.oneEmail';
  const headingId = `${idPrefix}-otp-heading`;

  return (
    <section className="gh-signin__screen" aria-labelledby={headingId}>
      {switched && kind === 'phone' ? (
        <Button
          variant="link"
          className="gh-otp__back"
          onClick={() => {
            // The Back button goes with the phone view: focus goes to the heading, never to <body>.
            setKind('email');
            requestAnimationFrame(() => headingRef.current?.focus());
          }}
        >
          {tx('otp.back')}
        </Button>
      ) : null}
      <ScreenHeading id={headingId} ref={headingRef} invalid={problems.invalid}>
        {tx('otp.heading')}
      </ScreenHeading>
      <RecentNotice />
      {problems.formAlert()}
      {current.length > 1 ? (
        <RadioGroup
          id={`${idPrefix}-otp-contact`}
          name={`${idPrefix}-otp-contact`}
          legend={tx(prompt)}
          value={selected.value}
          onChange={setChoice}
          options={current.map((c) => ({ value: c.value, label: <MaskedText>{c.label}</MaskedText> }))}
        />
      ) : (
        <>
          <p>{tx(prompt)}</p>
          <p className="gh-otp__contact">
            <MaskedText>{selected.label}</MaskedText>
          </p>
        </>
      )}
      {disabled.length > 0 ? (
        <Alert variant="info">
          {tx('otp.recentlyAdded', tx(kind === 'phone' ? 'otp.phoneNumber' : 'otp.emailAddress'))}
        </Alert>
      ) : null}
      <div className="gh-otp__actions">
        {kind === 'phone' && allowed.has('OTP-SMS') ? (
          <Button
            variant="primary"
            loading={busy === 'sms'}
            loadingText={tx('otp.sending')}
            onClick={() => void send('sms')}
          >
            {tx('otp.textMe')}
          </Button>
        ) : null}
        {kind === 'phone' && allowed.has('OTP-VOICE') ? (
          <Button
            variant={allowed.has('OTP-SMS') ? 'secondary' : 'primary'}
            loading={busy === 'voice'}
            loadingText={tx('otp.sending')}
            onClick={() => void send('voice')}
          >
            {tx('otp.callMe')}
          </Button>
        ) : null}
        {kind === 'email' ? (
          <Button
            variant="primary"
            loading={busy === 'email'}
            loadingText={tx('otp.sending')}
            onClick={() => void send('email')}
          >
            {tx('otp.emailMe')}
          </Button>
        ) : null}
      </div>
      <div className="gh-signin__links">
        {/* Widget spec §2: both links; switching only when the other kind has a usable contact (§4). */}
        {other.length > 0 ? (
          <Button
            variant="link"
            onClick={() => {
              setSwitched(true);
              problems.clear();
              setKind(kind === 'phone' ? 'email' : 'phone');
            }}
          >
            {tx('otp.anotherWay')}
          </Button>
        ) : null}
        <Button
          variant="link"
          onClick={() => navigate(routes.authenticatorRep, { state: { backButtonEnabled: true } })}
        >
          {tx('otp.cantReceive')}
        </Button>
        <CancelLink />
      </div>
    </section>
  );
}
