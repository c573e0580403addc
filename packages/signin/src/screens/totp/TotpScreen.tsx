import { Button } from '@gatehouse/ui';
import { useRef } from 'react';
import { useWidget } from '../../context.tsx';
import { CancelLink } from '../../shared/CancelLink.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { useCall } from '../../shared/useCall.ts';
import { useCodeEntry } from '../../shared/useCodeEntry.tsx';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';
import { tx } from '../app-codes/messages.ts';
import { providerName } from '../app-codes/names.ts';
import { RecentNotice } from '../authenticator/RecentNotice.tsx';

/**
 * Widget spec §2 "Authenticator-app (TOTP) screen", §4 its status mapping (the contract's
 * totpAuthentication table: 1200 continues, 1428 incorrect code, 1202/1204/1493 the representative
 * page, 1491 the TOTP block page).
 */
export function TotpScreen() {
  const { idPrefix, config } = useWidget();
  const call = useCall();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const entry = useCodeEntry({
    field: 'totp-code',
    factor: 'totp',
    check: (code, bindDevice) => call('totpAuthentication', { body: { securityCode: code, bindDevice } }),
  });
  const headingId = `${idPrefix}-totp-heading`;
  useHeadingFocus(headingRef);

  return (
    <section className="gh-signin__screen" aria-labelledby={headingId}>
      <ScreenHeading id={headingId} ref={headingRef} invalid={entry.problems.invalid}>
        {tx('totp.heading')}
      </ScreenHeading>
      <RecentNotice />
      {entry.problems.formAlert()}
      <p>{tx('totp.text', providerName(config))}</p>
      <form className="gh-signin__form" noValidate onSubmit={entry.submit}>
        {entry.fields({ code: tx('token.securityCode'), trust: tx('token.trustDevice') })}
        <Button
          type="submit"
          variant="primary"
          fullWidth
          loading={entry.busy}
          loadingText={tx('token.checking')}
        >
          {tx('totp.continue')}
        </Button>
      </form>
      <div className="gh-signin__links">
        <CancelLink />
      </div>
    </section>
  );
}
