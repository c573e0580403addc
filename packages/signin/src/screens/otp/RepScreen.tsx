import { format } from '@gatehouse/contract/client';
import { Button } from '@gatehouse/ui';
import { useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useWidget } from '../../context.tsx';
import { routes } from '../../routes.ts';
import { CancelLink } from '../../shared/CancelLink.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';
import { tx } from './messages.ts';
import type { OtpNavState } from './otp-state.ts';
import './Otp.css';

/**
 * Widget spec §2 "Rep page": call a representative, who gives a temporary code. The step-up
 * variant omits the heading and its text (spec §6).
 */
export function RepScreen() {
  const { idPrefix, config } = useWidget();
  const navigate = useNavigate();
  const nav = (useLocation().state ?? {}) as OtpNavState;
  const headingRef = useRef<HTMLHeadingElement>(null);
  useHeadingFocus(headingRef);
  const stepUp = config.journey === 'STEPUP';
  const headingId = `${idPrefix}-rep-heading`;
  return (
    <section
      className="gh-signin__screen"
      aria-labelledby={stepUp ? undefined : headingId}
      aria-label={stepUp ? tx('otp.heading') : undefined}
    >
      {nav.backButtonEnabled ? (
        <Button variant="link" className="gh-otp__back" onClick={() => navigate(-1)}>
          {tx('otp.back')}
        </Button>
      ) : null}
      {stepUp ? null : (
        <ScreenHeading id={headingId} ref={headingRef}>
          {tx('otp.repHeading')}
        </ScreenHeading>
      )}
      {config.repPhone ? (
        <p className="gh-otp__rep-phone">
          <a href={`tel:${config.repPhone.replace(/[^0-9+]/g, '')}`}>
            {format(tx('otp.repCall'), config.repPhone)}
          </a>
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
