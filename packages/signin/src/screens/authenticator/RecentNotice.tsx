import { Alert } from '@gatehouse/ui';
import { useWidget } from '../../context.tsx';
import { tx } from '../otp/messages.ts';

/** Where the step-up keeps the methods left out because they were added recently (per widget instance). */
export const recentKey = (idPrefix: string) => `gh.signin.${idPrefix}.recent`;

/**
 * STEPUP: a method held only by recently added credentials (an authenticator app, a token, a mobile
 * device) signs in but is not offered for this check (docs/decisions/030-credential-lifecycle.md);
 * the factor screens and the representative page say why, so the customer does not look for it.
 */
export function RecentNotice() {
  const { idPrefix, config } = useWidget();
  if (config.journey !== 'STEPUP') return null;
  let recent: unknown = [];
  try {
    recent = JSON.parse(sessionStorage.getItem(recentKey(idPrefix)) ?? '[]');
  } catch {}
  if (!Array.isArray(recent) || !recent.length) return null;
  return (
    <Alert variant="info" data-recent-notice="">
      {tx('otp.recentNotOffered')}
    </Alert>
  );
}
