import { AppShell, Button } from '@gatehouse/ui';
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { consoleApi } from '../api.ts';
import { t } from '../messages.ts';
import { routes } from '../routes.ts';
import { useSession } from '../session.tsx';
import './Console.css';

/** Header with the product, the signed-in staff member, the console's screens and sign-out; then the page. */
export function Shell({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const { staff, ended } = useSession();
  const link = (path: string, text: string) => (
    <li>
      <a className="gh-shell__link" href={`#${path}`} aria-current={location === path ? 'page' : undefined}>
        {text}
      </a>
    </li>
  );
  const signOut = async () => {
    await consoleApi.signOut();
    ended();
  };
  return (
    <AppShell
      className="console"
      skipText={t('common.skipToContent')}
      header={
        <>
          <span className="gh-shell__product">{t('common.productName')}</span>
          {staff ? (
            <>
              <nav aria-label={t('common.mainNav')}>
                <ul className="gh-shell__nav">
                  {link(routes.customer, t('common.navCustomer'))}
                  {link(routes.audit, t('common.navAudit'))}
                </ul>
              </nav>
              <div className="console__who">
                <span>{t('common.signedInAs', staff.name, staff.role)}</span>
                <Button variant="secondary" size="small" onClick={signOut}>
                  {t('common.signOut')}
                </Button>
              </div>
            </>
          ) : null}
        </>
      }
    >
      {children}
    </AppShell>
  );
}
