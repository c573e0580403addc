import { Alert, Button } from '@gatehouse/ui';
import { useRef } from 'react';
import { useWidget } from '../../context.tsx';
import { useLocationState, useNavigate } from '../../router.tsx';
import { routes } from '../../routes.ts';
import { CancelLink } from '../../shared/CancelLink.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';
import { tx } from '../otp/messages.ts';
import type { OtpNavState } from '../otp/otp-state.ts';
import '../otp/Otp.css';
import { RecentNotice } from '../authenticator/RecentNotice.tsx';

/**
 * Widget spec §2 "Rep page": call a representative, who gives a temporary code. The step-up
 * variant omits the heading and its text (spec §6).
 */
export function RepScreen() {
  const { idPrefix, config } = useWidget();
  const navigate = useNavigate();
  const nav = (useLocationState() ?? {}) as OtpNavState & { reason?: string };
  const headingRef = useRef<HTMLHeadingElement>(null);
  useHeadingFocus(headingRef);
  const stepUp = config.journey === 'STEPUP';
  const headingId = `${idPrefix}-rep-heading`;
  return (
    <section className="gh-signin__screen" aria-labelledby={headingId}>
      {nav.backButtonEnabled ? (
        <Button variant="link" className="gh-otp__back" onClick={() => navigate(-1)}>
          {tx('otp.back')}
        </Button>
      ) : null}
      {/* The step-up variant omits the call-to-verify heading (spec §6) but keeps a heading to
          land focus on and name the screen: the contact screen's 'Verify your identity'. */}
      <ScreenHeading id={headingId} ref={headingRef}>
        {tx(stepUp ? 'otp.heading' : 'otp.repHeading')}
      </ScreenHeading>
      <RecentNotice />
      {nav.reason === 'limit' ? (
        // 1491: the channel is refused for now; the customer learns why they are here.
        <Alert variant="warning">{tx('otp.limitReached')}</Alert>
      ) : null}
      {config.repPhone ? (
        <p className="gh-otp__rep-phone">
          <a href={`tel:${config.repPhone.replace(/[^0-9+]/g, '')}`}>{tx('otp.repCall', config.repPhone)}</a>
        </p>
      ) : null}
      {stepUp ? null : <p>{tx('otp.repText')}</p>}
      <Button
        variant="primary"
        onClick={() =>
          navigate(routes.authenticatorOtpCode, {
            state: {
              selectedContact: { type: 'REP', value: '', label: '', channel: 'rep' },
              backButtonEnabled: true,
            },
          })
        }
      >
        {tx('otp.continue')}
      </Button>
      <p className="gh-signin__links">
        <CancelLink />
      </p>
    </section>
  );
}
