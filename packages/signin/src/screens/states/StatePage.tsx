import { Button } from '@gatehouse/ui';
import { type ReactNode, useRef, useState } from 'react';
import { useWidget } from '../../context.tsx';
import type { MessageKey } from '../../messages/index.ts';
import { useCanGoBack, useNavigate } from '../../router.tsx';
import { type StateTextsKey, tx } from './messages.ts';

type Key = MessageKey | StateTextsKey;
/** A key of this folder's group or of the login route's: both are in the current texts. */
const text = (key: Key, ...args: Array<string | number>) => tx(key as StateTextsKey, ...args);

import { routes } from '../../routes.ts';
import { CancelLink } from '../../shared/CancelLink.tsx';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { useCancel } from '../../shared/useCancel.ts';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';

type Action = 'reset' | 'preReset' | 'updateUsername' | 'back' | 'leave' | 'backToLogin' | 'signInAgain';

type PageDef = {
  heading: Key;
  body: Key[];
  callUs?: boolean;
  action?: Action;
  cancel?: boolean;
};

/** Widget spec §2 and §8: the account-state pages as data, one row each. */
const statePages = {
  blocked: { heading: 'page.blockedHeading', body: ['page.blockedBody'], callUs: true, cancel: true },
  // Widget spec §8 'Security blocked': password 1401 and session login 1403 on a blocked account.
  securityBlocked: {
    heading: 'page.blockedHeading',
    body: ['error.securityBlocked', 'page.blockedBody'],
    callUs: true,
    cancel: true,
  },
  // Widget spec §8 'Unauthorized': HTTP 401, the session ended (or step-up without one).
  unauthorized: { heading: 'error.unauthorized', body: ['page.sessionEnded'], action: 'signInAgain' },
  blockedReset: { heading: 'page.lockedHeading', body: ['page.lockedBody'], action: 'reset', cancel: true },
  // Locked by a push reported as fraud (password authentication 1206): recovery unlocks it.
  fraudLocked: {
    heading: 'page.lockedHeading',
    body: ['page.fraudLockedBody'],
    action: 'reset',
    cancel: true,
  },
  expired: { heading: 'page.expiredHeading', body: ['page.expiredBody'], action: 'preReset', cancel: true },
  reject: { heading: 'page.rejectHeading', body: [], action: 'backToLogin' },
  prohibited: { heading: 'page.prohibitedHeading', body: ['page.prohibitedBody'], action: 'backToLogin' },
  forced: {
    heading: 'page.forcedHeading',
    body: ['page.forcedBody'],
    action: 'updateUsername',
    cancel: true,
  },
  // Back leaves the blocked factor: to login in the login journey (the server ended it), else the
  // host's cancel handling (widget spec §4 "Cancel").
  totpBlock: { heading: 'page.totpBlockHeading', body: ['page.totpBlockBody'], action: 'leave' },
  ssoError: { heading: 'page.ssoHeading', body: ['page.ssoBody'], action: 'backToLogin' },
  logout: { heading: 'page.logoutHeading', body: ['page.logoutBody'], action: 'backToLogin' },
  maintenance: {
    heading: 'page.ssoHeading',
    body: ['page.cantComplete', 'page.supportHours'],
    action: 'backToLogin',
  },
} satisfies Record<string, PageDef>;

export type StatePageName = keyof typeof statePages;

export function StatePage({ name, children }: { name: StatePageName; children?: ReactNode }) {
  const page: PageDef = statePages[name];
  const { config, idPrefix, client } = useWidget();
  const navigate = useNavigate();
  const canGoBack = useCanGoBack();
  const cancel = useCancel();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useHeadingFocus(headingRef);
  const headingId = `${idPrefix}-${name}-heading`;

  const [busy, setBusy] = useState(false);
  const act = async (action: Action) => {
    switch (action) {
      case 'reset':
        if (config.resetUrl) window.location.assign(config.resetUrl);
        return;
      case 'preReset':
        // Widget spec §2: a GET to the pre-reset address first, its failure ignored.
        setBusy(true);
        if (config.preResetUrl) {
          await fetch(config.preResetUrl, { credentials: 'include' }).catch(() => undefined);
        }
        if (config.resetUrl) window.location.assign(config.resetUrl);
        return;
      case 'updateUsername':
        navigate(routes.createUsername);
        return;
      case 'back':
        if (canGoBack) navigate(-1);
        else cancel();
        return;
      case 'leave':
        cancel();
        return;
      case 'signInAgain':
        // The DELETE-style logout (widget spec §7) clears what is left of the ended session; it
        // skips error mapping: whatever it answers, the customer signs in again.
        setBusy(true);
        await client.call('logout').catch(() => undefined);
        setBusy(false);
        if (config.journey === 'LOGIN') navigate(routes.login);
        else {
          // Step-up cannot sign in by itself: the host does (docs/embedding.md).
          config.onEvent?.({ type: 'sessionEnded', detail: { journey: config.journey } });
          cancel();
        }
        return;
      case 'backToLogin':
        // Back to the login screen in the login journey; elsewhere the host decides.
        if (config.journey === 'LOGIN') navigate(routes.login);
        else cancel();
        return;
    }
  };

  const actionLabel: Record<Action, Key> = {
    reset: 'page.resetPassword',
    preReset: 'page.resetPassword',
    updateUsername: 'page.updateUsername',
    back: 'page.back',
    leave: 'page.back',
    backToLogin: 'page.backToLogin',
    signInAgain: 'page.signInAgain',
  };
  const resetMissing = (page.action === 'reset' || page.action === 'preReset') && !config.resetUrl;

  return (
    <section className="gh-signin__screen" aria-labelledby={headingId}>
      <ScreenHeading id={headingId} ref={headingRef}>
        {text(page.heading)}
      </ScreenHeading>
      {page.body.map((key) => (
        <p key={key}>{text(key)}</p>
      ))}
      {children}
      {page.callUs && config.repPhone ? (
        <p>
          <a href={`tel:${config.repPhone.replace(/[^0-9+]/g, '')}`}>
            {text('page.callUs', config.repPhone)}
          </a>
        </p>
      ) : null}
      {page.action && !resetMissing ? (
        <Button variant="primary" loading={busy} onClick={() => void act(page.action!)}>
          {page.action === 'backToLogin' && config.journey !== 'LOGIN'
            ? text('page.cancel')
            : text(actionLabel[page.action])}
        </Button>
      ) : null}
      {page.cancel ? (
        <p className="gh-signin__links">
          <CancelLink />
        </p>
      ) : null}
    </section>
  );
}
