import { SignIn, type SignInConfig } from '@gatehouse/signin';
import { Card } from '@gatehouse/ui';
import { useMemo } from 'react';
import { useParams } from 'wouter';
import { currentEnvironment } from '../environment.ts';
import { useLanguage } from '../language.tsx';
import { leaveTo } from '../navigation.ts';
import { settings } from '../settings.ts';
import { Shell } from '../shell/Shell.tsx';
import { t } from '../texts.ts';
import { usePageTitle } from '../usePageTitle.ts';

const uidPattern = /^[A-Za-z0-9_-]{10,64}$/;

/**
 * The sign-in of another application of the bank (issue 27; docs/decisions/048-openid-provider.md):
 * the identity service's OpenID interaction sends the browser here, to #/oidc/login/:uid or
 * #/oidc/stepup/:uid, when the portal session does not already meet the application's request.
 * The widget runs the LOGIN or STEPUP journey; its finish returns to the interaction, which goes
 * back to the application. Cancel tells the application the customer declined. #/oidc/error (an
 * interaction that expired or is another browser's) opens the widget's /ssoerror screen.
 */
export function OidcPage() {
  const { journey, uid } = useParams<{ journey: string; uid?: string }>();
  usePageTitle(t('shell.signInTitle'));
  const { language } = useLanguage();
  const valid = !!uid && uidPattern.test(uid) && (journey === 'login' || journey === 'stepup');
  const config = useMemo<SignInConfig>(() => {
    const interaction = `${currentEnvironment().serviceHost}/oidc/interaction/${uid}`;
    return {
      appId: settings.appId,
      appName: settings.appName,
      language,
      endpoint: currentEnvironment().serviceHost,
      journey: valid && journey === 'stepup' ? 'STEPUP' : 'LOGIN',
      ...(valid ? {} : { start: 'ssoError' as const }),
      subEvent: settings.subEvent,
      sessionContext: settings.context,
      repPhone: settings.repPhone,
      businessSMSText: settings.smsSender,
      identityEndpoint: settings.usernameRoute,
      resetUrl: settings.usernameRoute,
      onFinish: () => leaveTo(valid ? `${interaction}?from=portal` : currentEnvironment().portalAddress),
      onCancel: () => leaveTo(valid ? `${interaction}/abort` : currentEnvironment().portalAddress),
    };
  }, [journey, uid, valid, language]);
  return (
    <Shell supportLine="login">
      <Card width={448}>
        <section className="portal__widget" aria-label={t('shell.signInRegion')}>
          <SignIn config={config} />
        </section>
      </Card>
    </Shell>
  );
}
