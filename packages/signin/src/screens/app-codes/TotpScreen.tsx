import { Button, Checkbox, CodeInput } from '@gatehouse/ui';
import { type FormEvent, useRef, useState } from 'react';
import { useWidget } from '../../context.tsx';
import { CancelLink } from '../../shared/CancelLink.tsx';
import { useFormErrors } from '../../shared/FormErrors.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { useCall } from '../../shared/useCall.ts';
import { useContinueJourney } from '../../shared/useContinueJourney.ts';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';
import { RecentNotice } from '../authenticator/RecentNotice.tsx';
import { codeProblem } from './code.ts';
import { tx } from './messages.ts';
import { providerName } from './names.ts';

/**
 * Widget spec §2 "Authenticator-app (TOTP) screen", §4 its status mapping (the contract's
 * totpAuthentication table: 1200 continues, 1428 incorrect code, 1202/1204/1493 the representative
 * page, 1491 the TOTP block page).
 */
export function TotpScreen() {
  const { idPrefix, config } = useWidget();
  const call = useCall();
  const continueJourney = useContinueJourney();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [trust, setTrust] = useState(false);
  const [busy, setBusy] = useState(false);
  const problems = useFormErrors();
  const codeId = `${idPrefix}-totp-code`;
  const headingId = `${idPrefix}-totp-heading`;
  useHeadingFocus(headingRef);

  const failOnCode = (message: string) => {
    problems.fail([{ fieldId: codeId, message }]);
    codeRef.current?.focus();
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const problem = codeProblem(code);
    if (problem) return failOnCode(problem);
    problems.clear();
    setBusy(true);
    const bindDevice = config.journey === 'LOGIN' && (config.bindDevice || trust);
    const outcome = await call('totpAuthentication', { body: { securityCode: code, bindDevice } });
    if (outcome.kind === 'success') {
      config.onEvent?.({ type: 'factorVerified', detail: { factor: 'totp' } });
      await continueJourney({ trustDevice: bindDevice, data: outcome.data });
    } else if (outcome.kind === 'error') {
      config.onEvent?.({ type: 'invalidCode', detail: { factor: 'totp' } });
      setCode('');
      failOnCode(outcome.text);
    }
    setBusy(false);
  }

  return (
    <section className="gh-signin__screen" aria-labelledby={headingId}>
      <ScreenHeading id={headingId} ref={headingRef} invalid={problems.invalid}>
        {tx('totp.heading')}
      </ScreenHeading>
      <RecentNotice />
      {problems.formAlert()}
      <p>{tx('totp.text', providerName(config))}</p>
      <form className="gh-signin__form" noValidate onSubmit={submit}>
        <CodeInput
          id={codeId}
          ref={codeRef}
          label={tx('token.securityCode')}
          required
          autoComplete="off"
          value={code}
          onValueChange={setCode}
          error={problems.onField(codeId)}
        />
        {config.journey === 'LOGIN' && !config.bindDevice ? (
          <Checkbox
            id={`${idPrefix}-trust`}
            label={tx('token.trustDevice')}
            checked={trust}
            onChange={(change) => setTrust(change.checked)}
          />
        ) : null}
        <Button type="submit" variant="primary" fullWidth loading={busy} loadingText={tx('token.checking')}>
          {tx('totp.continue')}
        </Button>
      </form>
      <div className="gh-signin__links">
        <CancelLink />
      </div>
    </section>
  );
}
