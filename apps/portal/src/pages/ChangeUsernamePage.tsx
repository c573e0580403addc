import { SignIn, type SignInConfig } from '@gatehouse/signin';
import { Card } from '@gatehouse/ui';
import { useEffect, useMemo, useRef } from 'react';
import { currentEnvironment } from '../environment.ts';
import { useLanguage } from '../language.tsx';
import { useNavigate } from '../router.ts';
import { settings } from '../settings.ts';
import { Shell } from '../shell/Shell.tsx';
import { t } from '../texts.ts';
import { usePageTitle } from '../usePageTitle.ts';
import { RequireAuth } from './RequireAuth.tsx';

/**
 * A signed-in customer changes their username (widget spec §1 'can create or change a username';
 * issue 26): the widget's change-username screen (config `start`), its current-password check
 * and rules. Its Continue and Cancel come back to the signed-in page, which says the new name.
 */
export function ChangeUsernamePage() {
  const navigate = useNavigate();
  const { language } = useLanguage();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  usePageTitle(t('page.changeUsernameTitle'));
  const config = useMemo<SignInConfig>(
    () => ({
      appId: settings.appId,
      appName: settings.appName,
      language,
      endpoint: currentEnvironment().serviceHost,
      journey: 'STEPUP',
      start: 'changeUsername',
      subEvent: settings.subEvent,
      sessionContext: settings.context,
      repPhone: settings.repPhone,
      businessSMSText: settings.smsSender,
      // The widget's headings sit under this page's h1.
      headingLevel: 2,
      onFinish: (result) => {
        const username = (result.data as { username?: string } | undefined)?.username ?? '';
        navigate('/home', { state: { notice: t('page.usernameChanged', username) } });
      },
      onCancel: () => navigate('/home'),
    }),
    [language, navigate],
  );
  return (
    <Shell>
      <Card width={448}>
        <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
          {t('page.changeUsernameTitle')}
        </h1>
        <p>{t('page.changeUsernameIntro')}</p>
      </Card>
      <Card width={448}>
        <section className="portal__widget" aria-label={t('page.changeUsernameRegion')}>
          <SignIn config={config} />
        </section>
      </Card>
    </Shell>
  );
}

/** The route's element: signed-in customers only (portal spec §2 "Route guard"). */
export function GuardedChangeUsernamePage() {
  return (
    <RequireAuth>
      <ChangeUsernamePage />
    </RequireAuth>
  );
}
