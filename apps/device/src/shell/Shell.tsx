import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { t } from '../messages/index.ts';
import { routes } from '../router.ts';
import './Shell.css';

/** Header with the product and the app's screens, the main landmark, then the page. */
export function Shell({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const link = (path: string, text: string) => (
    <li>
      <a className="device__link" href={`#${path}`} aria-current={location === path ? 'page' : undefined}>
        {text}
      </a>
    </li>
  );
  return (
    <div className="device">
      {/* A button, not a link: in a hash-routed app '#main' would be read as a route. */}
      <button type="button" className="device__skip" onClick={() => document.getElementById('main')?.focus()}>
        {t('skipToContent')}
      </button>
      <header className="device__header">
        <span className="device__product">{t('productName')}</span>
        <nav aria-label={t('mainNav')}>
          <ul className="device__nav">
            {link(routes.device, t('navDevice'))}
            {link(routes.codes, t('navCodes'))}
            {link(routes.add, t('navAdd'))}
          </ul>
        </nav>
      </header>
      <main id="main" className="device__main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
