import { AppShell } from '@gatehouse/ui';
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { t } from '../messages/index.ts';
import { routes } from '../router.ts';

/** Header with the product and the app's screens, the main landmark, then the page. */
export function Shell({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const link = (path: string, text: string) => (
    <li>
      <a className="gh-shell__link" href={`#${path}`} aria-current={location === path ? 'page' : undefined}>
        {text}
      </a>
    </li>
  );
  return (
    <AppShell
      skipText={t('skipToContent')}
      header={
        <>
          <span className="gh-shell__product">{t('productName')}</span>
          <nav aria-label={t('mainNav')}>
            <ul className="gh-shell__nav">
              {link(routes.device, t('navDevice'))}
              {link(routes.codes, t('navCodes'))}
              {link(routes.add, t('navAdd'))}
            </ul>
          </nav>
        </>
      }
    >
      {children}
    </AppShell>
  );
}
