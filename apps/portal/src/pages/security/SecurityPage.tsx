import type { SecurityOverviewData } from '@gatehouse/contract/client';
import {
  Alert,
  Button,
  Card,
  Spinner,
  TimeLimitWarning,
  useAnnounce,
  useSecondsLeft,
  useTimeLimit,
} from '@gatehouse/ui';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from '../../router.ts';
import { Shell } from '../../shell/Shell.tsx';
import { usePageTitle } from '../../usePageTitle.ts';
import { RequireAuth } from '../RequireAuth.tsx';
import { SecurityContext, type SecurityPageContext } from './context.tsx';
import { StepUp, type StepUpReason } from './StepUp.tsx';
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
  | { kind: 'ready'; overview: SecurityOverviewData };

/** What a read of the overview is for: the page's entry, after a step-up, or after a change. */
type LoadCause = 'entry' | 'verified' | 'reload';

/**
 * The security page (#/security, issue 12): every factor, trusted browser and session of the
 * signed-in customer, behind a fresh step-up. Entering it reads the overview; a 1412 answer (no
 * step-up within SECURITY_STEPUP_MINUTES) hosts the widget in the STEPUP journey, whose finish
 * reads the overview again. Any later call that answers 1412 brings the step-up back. The factors'
 * sections come from their folders (sections.ts), then the page's own: trusted browsers, sessions,
 * activity.
 *
 * The step-up's time limit is kept in view (WCAG 2.2.1; docs/decisions/049-time-limit-warnings.md):
 * `warningSeconds` before it ends a dialog says so and offers 'Verify again' (a step-up is proof of
 * a fresh factor, so the server never stretches one: extending it means proving a factor again).
 * While the widget shows, the sections stay mounted and hidden, so a half-typed form is still there
 * after the new step-up, and focus goes back to where it was.
 */
export function SecurityPage() {
  const navigate = useNavigate();
  const announce = useAnnounce();
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [stepUp, setStepUp] = useState<StepUpReason | null>(null);
  /** When the step-up ends, on this page's clock, and how long before it the warning shows. */
  const [limit, setLimit] = useState<{ deadline: number; warningMs: number } | null>(null);
  const [warning, setWarning] = useState(false);
  const [errorForms, setErrorForms] = useState<ReadonlySet<string>>(new Set());
  const heading = useRef<HTMLHeadingElement>(null);
  /** Where focus goes once the sections show again: the field the customer left, or the heading. */
  const focusBack = useRef<HTMLElement | 'heading' | null>(null);
  /** What had focus when the warning opened (the warning's own button has it after). */
  const warnedFrom = useRef<Element | null>(null);

  /** The step-up comes (back): the sections stay, hidden; focus will come back to where it is now. */
  const requireStepUp = useCallback((reason: StepUpReason) => {
    setWarning(false);
    setStepUp((current) => {
      // After a refused call ('again') the page's heading says the page is back; after the page's
      // own time limit ('renew', 'ended') the customer goes back to the field they were in.
      if (current === null && (reason === 'renew' || reason === 'ended')) {
        const focused = document.activeElement;
        const active = focused?.closest('[role="dialog"]') ? warnedFrom.current : focused;
        focusBack.current = active instanceof HTMLElement && active !== document.body ? active : 'heading';
      }
      return current ?? reason;
    });
  }, []);

  const load = useCallback(
    async (cause: LoadCause) => {
      const sent = Date.now();
      const answer = await securityCall<SecurityOverviewData>('securityOverview');
      if (answer.kind === 'done') {
        setView({ kind: 'ready', overview: answer.data });
        // Counted from the moment the call left: the page's end never comes after the server's.
        setLimit({
          deadline: sent + answer.data.stepUpEndsInSeconds * 1000,
          warningMs: answer.data.warningSeconds * 1000,
        });
        if (cause === 'entry') focusBack.current = 'heading';
        if (cause === 'verified') focusBack.current ??= 'heading';
        setStepUp(null);
      } else if (answer.kind === 'stepUp') requireStepUp(cause === 'entry' ? 'first' : 'again');
      else if (answer.kind === 'signedOut') navigate('/login', { replace: true });
      else setView({ kind: 'failed', message: answer.message });
    },
    [navigate, requireStepUp],
  );

  useEffect(() => {
    void load('entry');
  }, [load]);

  // The page heading takes focus when the page shows on entry; after a step-up, the field the
  // customer was typing in does (the heading when it is gone).
  useEffect(() => {
    if (stepUp !== null || view.kind !== 'ready' || !focusBack.current) return;
    const target = focusBack.current;
    focusBack.current = null;
    if (target !== 'heading' && target.isConnected) {
      target.focus();
      if (document.activeElement === target) return;
    }
    heading.current?.focus();
  }, [stepUp, view.kind]);

  useTimeLimit(stepUp === null ? (limit?.deadline ?? null) : null, limit?.warningMs ?? 0, {
    onWarn: () => {
      warnedFrom.current = document.activeElement;
      setWarning(true);
    },
    onEnd: () => {
      requireStepUp('ended');
      announce(t('security.stepUpEnded'));
    },
  });
  const left = useSecondsLeft(warning && limit ? limit.deadline : null) ?? 0;

  const context = useMemo<SecurityPageContext | null>(() => {
    if (view.kind !== 'ready') return null;
    return {
      overview: view.overview,
      run: async (call, body) => {
        const answer = await securityCall(call, body);
        if (answer.kind === 'stepUp') {
          requireStepUp('again');
          return null;
        }
        if (answer.kind === 'signedOut') {
          navigate('/login', { replace: true });
          return null;
        }
        return answer as never;
      },
      reload: () => load('reload'),
      setFormErrors: (form, hasErrors) =>
        setErrorForms((forms) => {
          if (forms.has(form) === hasErrors) return forms;
          const next = new Set(forms);
          if (hasErrors) next.add(form);
          else next.delete(form);
          return next;
        }),
    };
  }, [view, load, navigate, requireStepUp]);

  usePageTitle(stepUp !== null ? t('security.stepUpTitle') : t('security.title'), errorForms.size > 0);

  return (
    <Shell>
      {stepUp !== null ? (
        <StepUp
          reason={stepUp}
          onVerified={() => load('verified')}
          onCancel={() => {
            // Before the step-up ends, Cancel on 'Verify again' goes back to the page as it was.
            if (stepUp === 'renew' && limit && Date.now() < limit.deadline) setStepUp(null);
            else navigate('/home');
          }}
        />
      ) : null}
      <div className="security" hidden={stepUp !== null}>
        <Card className="security__intro">
          <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
            {view.kind === 'loading' ? t('security.loading') : t('security.title')}
          </h1>
          {view.kind === 'loading' && stepUp === null ? (
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
                  void load('entry');
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
      <TimeLimitWarning
        open={warning && stepUp === null}
        title={t('security.timeWarningTitle')}
        description={
          left >= 60
            ? t('security.timeWarningMinutes', Math.ceil(left / 60))
            : t('security.timeWarningSeconds', left)
        }
        actionText={t('security.verifyAgain')}
        dismissText={t('security.notNow')}
        onAction={() => requireStepUp('renew')}
        onDismiss={() => setWarning(false)}
      />
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
