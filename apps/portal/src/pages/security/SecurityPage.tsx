import type { SecurityOverviewData } from '@gatehouse/contract/client';
import { Alert, Button, Card, Spinner } from '@gatehouse/ui';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from '../../router.ts';
import { Shell } from '../../shell/Shell.tsx';
import { usePageTitle } from '../../usePageTitle.ts';
import { RequireAuth } from '../RequireAuth.tsx';
import { SecurityContext, type SecurityPageContext } from './context.tsx';
import { StepUp } from './StepUp.tsx';
import { ActivitySection } from './sections/ActivitySection.tsx';
import { SessionsSection } from './sections/SessionsSection.tsx';
import { TrustedBrowsersSection } from './sections/TrustedBrowsersSection.tsx';
import { factorSections } from './sections.ts';
import { securityCall } from './securityApi.ts';
import './SecurityPage.css';
import { t } from '../../texts.ts';

type View =
  | { kind: 'loading' }
  /** The overview could not be read: the server's text (or ours, with no answer). */
  | { kind: 'failed'; message: string }
  /** `again`: a step-up ran out while the page was open (not the first visit). */
  | { kind: 'stepUp'; again: boolean }
  | { kind: 'ready'; overview: SecurityOverviewData };

/**
 * The security page (#/security, issue 12): every factor, trusted browser and session of the
 * signed-in customer, behind a fresh step-up. Entering it reads the overview; a 1412 answer (no
 * step-up within SECURITY_STEPUP_MINUTES) hosts the widget in the STEPUP journey, whose finish
 * reads the overview again. Any later call that answers 1412 brings the step-up back. The factors'
 * sections come from their folders (sections.ts), then the page's own: trusted browsers, sessions,
 * activity.
 */
export function SecurityPage() {
  const navigate = useNavigate();
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [errorForms, setErrorForms] = useState<ReadonlySet<string>>(new Set());
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef(false);

  const load = useCallback(
    async (again = false) => {
      const answer = await securityCall<SecurityOverviewData>('securityOverview');
      if (answer.kind === 'done') setView({ kind: 'ready', overview: answer.data });
      else if (answer.kind === 'stepUp') setView({ kind: 'stepUp', again });
      else if (answer.kind === 'signedOut') navigate('/login', { replace: true });
      else setView({ kind: 'failed', message: answer.message });
    },
    [navigate],
  );

  useEffect(() => {
    void load();
  }, [load]);

  // The page heading takes focus when the page shows: on entry and after each step-up.
  useEffect(() => {
    if (view.kind === 'ready' && !shown.current) heading.current?.focus();
    shown.current = view.kind === 'ready';
  }, [view.kind]);

  const context = useMemo<SecurityPageContext | null>(() => {
    if (view.kind !== 'ready') return null;
    return {
      overview: view.overview,
      run: async (call, body) => {
        const answer = await securityCall(call, body);
        if (answer.kind === 'stepUp') {
          setView({ kind: 'stepUp', again: true });
          return null;
        }
        if (answer.kind === 'signedOut') {
          navigate('/login', { replace: true });
          return null;
        }
        return answer as never;
      },
      reload: () => load(true),
      setFormErrors: (form, hasErrors) =>
        setErrorForms((forms) => {
          if (forms.has(form) === hasErrors) return forms;
          const next = new Set(forms);
          if (hasErrors) next.add(form);
          else next.delete(form);
          return next;
        }),
    };
  }, [view, load, navigate]);

  usePageTitle(view.kind === 'stepUp' ? t('security.stepUpTitle') : t('security.title'), errorForms.size > 0);

  if (view.kind === 'stepUp') {
    return <StepUp again={view.again} onVerified={() => load(true)} onCancel={() => navigate('/home')} />;
  }

  return (
    <Shell>
      <div className="security">
        <Card className="security__intro">
          <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
            {view.kind === 'loading' ? t('security.loading') : t('security.title')}
          </h1>
          {view.kind === 'loading' ? (
            <Spinner announce size="small" primaryText={t('security.loading')} />
          ) : null}
          {view.kind === 'failed' ? (
            <>
              <Alert variant="critical" title={t('security.loadFailed')}>
                {view.message}
              </Alert>
              <Button
                variant="secondary"
                onClick={() => {
                  setView({ kind: 'loading' });
                  void load();
                }}
              >
                {t('security.retry')}
              </Button>
            </>
          ) : null}
          {view.kind === 'ready' ? <p>{t('security.intro')}</p> : null}
          <p>
            <a href="#/home">{t('security.backToAccount')}</a>
          </p>
        </Card>
        {context ? (
          <SecurityContext.Provider value={context}>
            {factorSections.map(({ key, Section }) => (
              <Section key={key} />
            ))}
            <TrustedBrowsersSection />
            <SessionsSection />
            <ActivitySection />
          </SecurityContext.Provider>
        ) : null}
      </div>
    </Shell>
  );
}

/** The route's element: signed in first (portal spec §2 route guard), then the page. */
export function GuardedSecurityPage() {
  return (
    <RequireAuth>
      <SecurityPage />
    </RequireAuth>
  );
}

/** The page's texts (the catalogs' `security` group), fetched by language with it. */
export const securityTexts = import.meta.glob('../../../messages/*.json', {
  query: { groups: 'security' },
  import: 'default',
});
