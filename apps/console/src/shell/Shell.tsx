import { Button } from '@gatehouse/ui';
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
      <a className="console__link" href={`#${path}`} aria-current={location === path ? 'page' : undefined}>
        {text}
      </a>
    </li>
  );
  const signOut = async () => {
    await consoleApi.signOut();
    ended();
  };
  return (
    <div className="console">
      {/* A button, not a link: in a hash-routed app '#main' would be read as a route. */}
      <button
        type="button"
        className="console__skip"
        onClick={() => document.getElementById('main')?.focus()}
      >
        {t('common.skipToContent')}
      </button>
      <header className="console__header">
        <span className="console__product">{t('common.productName')}</span>
        {staff ? (
          <>
            <nav aria-label={t('common.mainNav')}>
              <ul className="console__nav">
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
      </header>
      <main id="main" className="console__main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
