import { limits } from '@gatehouse/contract/client';
import { Button } from '@gatehouse/ui';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useWidget } from '../../context.tsx';
import { useLocationState, useNavigate } from '../../router.tsx';
import { routes } from '../../routes.ts';
import { CancelLink } from '../../shared/CancelLink.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { Loading } from '../../shared/Loading.tsx';
import { OnDemandAlert as Alert } from '../../shared/onDemandAlert.tsx';
import { useCall } from '../../shared/useCall.ts';
import { useCodeEntry } from '../../shared/useCodeEntry.tsx';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';
import { tx } from '../app-codes/messages.ts';
import { providerName, tokenAppName } from '../app-codes/names.ts';
import { RecentNotice } from '../authenticator/RecentNotice.tsx';

type Credentials = { credentials?: Array<{ credentialId: string }> };

/**
 * Widget spec §2 "Token app code screen", §3 token challenge, §4 "Token flow": the credential is
 * fetched on load; each failed submit is counted here, and at 2 (or on the server's 1491) the
 * customer goes to the resync screen. The count starts afresh each time the screen is entered.
 */
export function TokenScreen() {
  const { idPrefix, config } = useWidget();
  const call = useCall();
  const navigate = useNavigate();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [credentialId, setCredentialId] = useState<string | null>(null);
  const failures = useRef(0);
  // Back from a successful resync: the server's 'in sync' text, and the next code is asked for.
  const nav = useLocationState<{ resynced?: boolean; message?: string }>();
  const synced = nav?.resynced ? nav.message : undefined;
  const entry = useCodeEntry({
    field: 'token-code',
    factor: 'token',
    blocked: !credentialId,
    check: (code, bindDevice) =>
      call('svipAuthentication', { body: { credentialId, securityCode1: code, bindDevice } }),
    refused: () => {
      failures.current += 1;
      // Widget spec §4: at 2 failed submits the customer goes to sync.
      if (failures.current < limits.tokenFailuresBeforeSync) return false;
      navigate(routes.authenticatorSvipSync);
      return true;
    },
  });
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

  useHeadingFocus(headingRef);
  const help = tx(
    'token.help',
    app,
    providerName(config),
    config.repPhone ? tx('token.atPhone', config.repPhone) : '',
  );

  return (
    <section className="gh-signin__screen" aria-labelledby={headingId}>
      <ScreenHeading id={headingId} ref={headingRef} invalid={entry.problems.invalid}>
        {tx('token.heading', app)}
      </ScreenHeading>
      <RecentNotice />
      {entry.problems.formAlert()}
      {credentialId === null ? (
        <Loading />
      ) : (
        <>
          {synced && !entry.problems.invalid ? (
            <Suspense fallback={null}>
              <Alert variant="confirm">
                <p>{synced}</p>
                <p>{tx('token.synced', app)}</p>
              </Alert>
            </Suspense>
          ) : null}
          <p>{tx('token.prompt', app)}</p>
          <form className="gh-signin__form" noValidate onSubmit={entry.submit}>
            {entry.fields({ code: tx('token.securityCode'), trust: tx('token.trustDevice') })}
            <Button
              type="submit"
              variant="primary"
              fullWidth
              loading={entry.busy}
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
