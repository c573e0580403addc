import { SignIn, type SignInConfig } from '@gatehouse/signin';
import { Alert, Card, useAnnounce } from '@gatehouse/ui';
import { useEffect, useMemo, useRef } from 'react';
import { currentEnvironment } from '../../environment.ts';
import { useLanguage } from '../../language.tsx';
import { settings } from '../../settings.ts';
import { t } from '../../texts.ts';

/**
 * Why the step-up shows: the page's first one; a call answered 1412 (it ran out while the page was
 * open); the page's own clock saw it end; the customer chose 'Verify again' before it ended.
 */
export type StepUpReason = 'first' | 'again' | 'ended' | 'renew';

/**
 * The step-up the security page needs (issue 12): the widget in the STEPUP journey, as the login
 * page hosts it in LOGIN, with no `authenticators` of ours, so the account's allowed factors come
 * from the server. Its finish hands back to the page; Cancel is the page's to decide. It renders
 * inside the page's shell, above the page's sections, which stay (hidden) with what was typed in
 * them (docs/decisions/049-time-limit-warnings.md).
 */
export function StepUp({
  reason,
  onVerified,
  onCancel,
}: {
  reason: StepUpReason;
  onVerified: () => Promise<void>;
  onCancel: () => void;
}) {
  const announce = useAnnounce();
  const { language } = useLanguage();
  const heading = useRef<HTMLHeadingElement>(null);
  // The heading says why first; the widget's own screen heading follows it.
  useEffect(() => heading.current?.focus(), []);
  // The widget's config is made once: the handlers it calls are read when it calls them.
  const handlers = useRef({ onVerified, onCancel });
  handlers.current = { onVerified, onCancel };
  const config = useMemo<SignInConfig>(
    () => ({
      appId: settings.appId,
      appName: settings.appName,
      language,
      endpoint: currentEnvironment().serviceHost,
      journey: 'STEPUP',
      subEvent: settings.subEvent,
      sessionContext: settings.context,
      repPhone: settings.repPhone,
      businessSMSText: settings.smsSender,
      // The widget's headings sit under this page's h1.
      headingLevel: 2,
      onFinish: () => {
        announce(t('security.stepUpDone'));
        void handlers.current.onVerified();
      },
      onCancel: () => handlers.current.onCancel(),
    }),
    [announce, language],
  );
  const notice =
    reason === 'again'
      ? t('security.stepUpAgain')
      : reason === 'ended'
        ? t('security.stepUpEnded')
        : reason === 'renew'
          ? t('security.stepUpRenew')
          : null;
  return (
    <>
      <Card width={448}>
        <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
          {t('security.stepUpHeading')}
        </h1>
        {notice ? <Alert variant="info">{notice}</Alert> : null}
        <p>{t('security.stepUpIntro')}</p>
      </Card>
      <Card width={448}>
        {/* No region of its own: the widget's screen is the region, named by its heading, which
            the host's name would only repeat ('Verify your identity' twice, axe landmark-unique). */}
        <div className="portal__widget">
          <SignIn config={config} />
        </div>
      </Card>
    </>
  );
}
