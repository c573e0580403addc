import { limits } from '@gatehouse/contract/client';
import { Button, Checkbox, CodeInput } from '@gatehouse/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useWidget } from '../../context.tsx';
import { useNavigate } from '../../router.tsx';
import { routes } from '../../routes.ts';
import { CancelLink } from '../../shared/CancelLink.tsx';
import { useFormErrors } from '../../shared/FormErrors.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { Loading } from '../../shared/Loading.tsx';
import { useCall } from '../../shared/useCall.ts';
import { useContinueJourney } from '../../shared/useContinueJourney.ts';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';
import { RecentNotice } from '../authenticator/RecentNotice.tsx';
import { codeProblem } from './code.ts';
import { tx } from './messages.ts';
import { providerName, tokenAppName } from './names.ts';

type Credentials = { credentials?: Array<{ credentialId: string }> };

/**
 * Widget spec §2 "Token app code screen", §3 token challenge, §4 "Token flow": the credential is
 * fetched on load; each failed submit is counted here, and at 2 (or on the server's 1491) the
 * customer goes to the resync screen. The count starts afresh each time the screen is entered.
 */
export function TokenScreen() {
  const { idPrefix, config } = useWidget();
  const call = useCall();
  const continueJourney = useContinueJourney();
  const navigate = useNavigate();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [credentialId, setCredentialId] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [trust, setTrust] = useState(false);
  const [busy, setBusy] = useState(false);
  const failures = useRef(0);
  const problems = useFormErrors();
  const codeId = `${idPrefix}-token-code`;
  const headingId = `${idPrefix}-token-heading`;
  const app = tokenAppName(config);

  const asked = useRef(false);
  useEffect(() => {
    // Once per entry (React's development double effect included).
    if (asked.current) return;
    asked.current = true;
    void call('svipStatus').then((outcome) => {
      if (outcome.kind !== 'success') return;
      const first = (outcome.data as Credentials | undefined)?.credentials?.[0];
      // No credential: the representative page (the server's 1204 says the same on a submit).
      if (first) setCredentialId(first.credentialId);
      else navigate(routes.authenticatorRep);
    });
  }, [call, navigate]);

  const failOnCode = (message: string) => {
    problems.fail([{ fieldId: codeId, message }]);
    codeRef.current?.focus();
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !credentialId) return;
    const problem = codeProblem(code);
    if (problem) return failOnCode(problem);
    problems.clear();
    setBusy(true);
    const bindDevice = config.journey === 'LOGIN' && (config.bindDevice || trust);
    const outcome = await call('svipAuthentication', {
      body: { credentialId, securityCode1: code, bindDevice },
    });
    if (outcome.kind === 'success') {
      config.onEvent?.({ type: 'factorVerified', detail: { factor: 'token' } });
      await continueJourney({ trustDevice: bindDevice, data: outcome.data });
    } else if (outcome.kind === 'error') {
      config.onEvent?.({ type: 'invalidCode', detail: { factor: 'token' } });
      failures.current += 1;
      // Widget spec §4: at 2 failed submits the customer goes to sync.
      if (failures.current >= limits.tokenFailuresBeforeSync) {
        navigate(routes.authenticatorSvipSync);
        return;
      }
      setCode('');
      failOnCode(outcome.text);
    }
    setBusy(false);
  }

  useHeadingFocus(headingRef);
  const help = tx(
    'token.help',
    app,
    providerName(config),
    config.repPhone ? tx('token.atPhone', config.repPhone) : '',
  );

  return (
    <section className="gh-signin__screen" aria-labelledby={headingId}>
      <ScreenHeading id={headingId} ref={headingRef} invalid={problems.invalid}>
        {tx('token.heading', app)}
      </ScreenHeading>
      <RecentNotice />
      {problems.formAlert()}
      {credentialId === null ? (
        <Loading />
      ) : (
        <>
          <p>{tx('token.prompt', app)}</p>
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
            <Button
              type="submit"
              variant="primary"
              fullWidth
              loading={busy}
              loadingText={tx('token.checking')}
            >
              {tx('token.submit')}
            </Button>
          </form>
          <p>{help}</p>
        </>
      )}
      <div className="gh-signin__links">
        <CancelLink />
      </div>
    </section>
  );
}
