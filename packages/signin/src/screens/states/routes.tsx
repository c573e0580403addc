import { useWidget } from '../../context.tsx';
import { useLocationState } from '../../router.tsx';
import { StatePage, type StatePageName } from './StatePage.tsx';

/** Blocked, or blocked for reset when the state says so (password authentication 1203), or locked by a fraud report (1206). */
export function BlockedRoute() {
  const state = useLocationState() as { reason?: string } | null;
  const names: Record<string, StatePageName> = {
    reset: 'blockedReset',
    fraud: 'fraudLocked',
    maintenance: 'maintenance',
    securityBlocked: 'securityBlocked',
  };
  const name = names[state?.reason ?? ''] ?? 'blocked';
  return <StatePage name={name} />;
}

/** Reject: the message comes from the host's config. */
export function RejectRoute() {
  const { config } = useWidget();
  return <StatePage name="reject">{config.rejectMessage ? <p>{config.rejectMessage}</p> : null}</StatePage>;
}
