import type { ConsoleStaff } from '@gatehouse/contract/client';
import { TimeLimitWarning, useAnnounce, useSecondsLeft, useTimeLimit } from '@gatehouse/ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import { consoleApi, lastSessionTouch, onSessionTouch } from './api.ts';
import { t } from './messages.ts';

/**
 * Typing counts as activity: while a staff member types, the console tells the server at most once
 * this often (a keep-alive call), so a long note is not lost to the idle limit.
 */
export const TYPING_KEEP_ALIVE_MS = 60_000;

/**
 * The staff session's idle limit, kept in view (WCAG 2.2.1; docs/decisions/049-time-limit-warnings.md):
 * every answered call moves the end (api.ts onSessionTouch); typing sends a keep-alive at most once
 * a minute; `warningSeconds` before the end a dialog says how long is left and offers 'Stay signed
 * in' (Escape and Close stay signed in too: whoever closes it is here); at the end the console signs
 * out and the sign-in page says why, and that what was typed and not sent is gone.
 */
export default function IdleWarning({
  staff,
  ended,
}: {
  staff: ConsoleStaff;
  ended: (notice?: string) => void;
}) {
  const announce = useAnnounce();
  const idleMs = staff.idleMinutes * 60_000;
  const [deadline, setDeadline] = useState(() => (lastSessionTouch() || Date.now()) + idleMs);
  const [warning, setWarning] = useState(false);
  const [busy, setBusy] = useState(false);
  const extending = useRef(false);
  // A call moved the session (in this tab or another): a new deadline, and no warning for the old one.
  useEffect(
    () =>
      onSessionTouch((sentAt) => {
        setDeadline(sentAt + idleMs);
        setWarning(false);
      }),
    [idleMs],
  );

  const end = useCallback(async () => {
    setWarning(false);
    // The server has ended it or is about to: end it there for certain, then say so.
    await consoleApi.signOut();
    const text = t('common.sessionTimedOut', staff.idleMinutes);
    announce(text);
    ended(text);
  }, [announce, ended, staff.idleMinutes]);

  const extend = useCallback(async () => {
    if (extending.current) return;
    extending.current = true;
    setBusy(true);
    const answer = await consoleApi.extend();
    extending.current = false;
    setBusy(false);
    if (answer.ok) {
      setWarning(false);
      announce(t('common.stillSignedIn'));
    } else if (answer.signedOut) void end();
  }, [announce, end]);

  useTimeLimit(deadline, staff.warningSeconds * 1000, {
    onWarn: () => setWarning(true),
    onEnd: () => void end(),
  });

  // Typing in any field is activity: a keep-alive once the last call is a minute old.
  useEffect(() => {
    const typed = () => {
      if (extending.current || Date.now() - lastSessionTouch() < TYPING_KEEP_ALIVE_MS) return;
      extending.current = true;
      void consoleApi.extend().then(() => {
        extending.current = false;
      });
    };
    document.addEventListener('input', typed, true);
    return () => document.removeEventListener('input', typed, true);
  }, []);

  const left = useSecondsLeft(warning ? deadline : null) ?? 0;
  return (
    <TimeLimitWarning
      open={warning}
      title={t('common.idleWarningTitle')}
      description={
        left >= 60
          ? t('common.idleWarningMinutes', Math.ceil(left / 60))
          : t('common.idleWarningSeconds', left)
      }
      actionText={t('common.staySignedIn')}
      busy={busy}
      busyText={t('common.staySignedInBusy')}
      onAction={() => void extend()}
      onDismiss={() => void extend()}
    />
  );
}
