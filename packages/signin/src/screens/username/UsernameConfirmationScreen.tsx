import { Status } from '@gatehouse/contract/client';
import { Button } from '@gatehouse/ui';
import { useRef, useState } from 'react';
import { useWidget } from '../../context.tsx';
import { useLocationState } from '../../router.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { useCall } from '../../shared/useCall.ts';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';
import { tx } from './messages.ts';

/** Widget spec §2 "Username confirmation": the new username, a message and Continue. */
export function UsernameConfirmationScreen() {
  const { idPrefix, config, finish } = useWidget();
  const call = useCall();
  const state = useLocationState() as { username?: string } | null;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [busy, setBusy] = useState(false);
  useHeadingFocus(headingRef);
  const headingId = `${idPrefix}-confirm-heading`;

  const onContinue = async () => {
    if (config.start === 'changeUsername') {
      // A signed-in change (config `start`): nothing more to prove; the host takes over.
      finish({
        journey: config.journey,
        code: Status.SUCCESS,
        message: '',
        data: { username: state?.username },
        context: undefined,
      });
      return;
    }
    setBusy(true);
    // The login transaction goes on: session login decides what is next (or completes).
    await call('sessionLogin');
    setBusy(false);
  };

  return (
    <section className="gh-signin__screen" aria-labelledby={headingId}>
      <ScreenHeading id={headingId} ref={headingRef}>
        {tx('username.confirmHeading')}
      </ScreenHeading>
      {state?.username ? <p>{tx('username.confirmValue', state.username)}</p> : null}
      <p>{tx('username.confirmBody')}</p>
      <Button variant="primary" loading={busy} onClick={() => void onContinue()}>
        {tx('username.continue')}
      </Button>
    </section>
  );
}
