import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { messages } from '../messages.ts';
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
        {messages.skipToContent}
      </button>
      <header className="device__header">
        <span className="device__product">{messages.productName}</span>
        <nav aria-label={messages.mainNav}>
          <ul className="device__nav">
            {link(routes.device, messages.navDevice)}
            {link(routes.codes, messages.navCodes)}
            {link(routes.add, messages.navAdd)}
          </ul>
        </nav>
      </header>
      <main id="main" className="device__main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
