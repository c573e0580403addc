import { Button } from '@gatehouse/ui';
import { useRef } from 'react';
import { useWidget } from '../../context.tsx';
import { t } from '../../messages/index.ts';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { useCancel } from '../../shared/useCancel.ts';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';
import { tx } from './messages.ts';
import './Push.css';

/**
 * Widget spec §2 "Push denied": the customer said "No, it's not me" (or reported fraud). Title and
 * body by journey (texts in docs/decisions/022-push-and-device.md); the button leaves through cancel
 * handling (spec §4 "Cancel": the login route in LOGIN, the host's cancel handler otherwise).
 */
export function PushDeniedScreen() {
  const { idPrefix, config } = useWidget();
  const cancel = useCancel();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useHeadingFocus(headingRef);
  const stepUp = config.journey === 'STEPUP';
  const headingId = `${idPrefix}-push-denied-heading`;
  return (
    <section className="gh-signin__screen" aria-labelledby={headingId}>
      <ScreenHeading id={headingId} ref={headingRef}>
        {tx(stepUp ? 'push.deniedHeadingStepUp' : 'push.deniedHeadingLogin')}
      </ScreenHeading>
      <p>
        {stepUp ? tx('push.deniedBodyStepUp') : `${tx('push.deniedBodyLogin')} ${t('error.pushBlocked')}`}
      </p>
      <Button variant="primary" onClick={cancel}>
        {tx(stepUp ? 'push.backToHomepage' : 'push.goBack')}
      </Button>
    </section>
  );
}
