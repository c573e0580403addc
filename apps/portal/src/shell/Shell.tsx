import { format } from '@gatehouse/contract/client';
import type { ReactNode } from 'react';
import { messages } from '../messages.ts';
import { settings } from '../settings.ts';
import './Shell.css';

/** Portal spec §1: header, disclosure, support e-mail, footer with copyright, version and links. */
export function Shell({ children, supportLine }: { children: ReactNode; supportLine?: 'login' | 'logout' }) {
  const mail = <a href={`mailto:${settings.supportEmail}`}>{settings.supportEmail}</a>;
  const line = supportLine === 'logout' ? messages.supportLineLogout : messages.supportLine;
  const [before, after] = line.split('{0}');
  return (
    <div className="portal">
      {/* A button, not a link: in a hash-routed app '#main' would be read as a route. */}
      <button type="button" className="portal__skip" onClick={() => document.getElementById('main')?.focus()}>
        {messages.skipToContent}
      </button>
      <header className="portal__header">
        <span className="portal__product">{messages.productName}</span>
        <a className="portal__support" href={`mailto:${settings.supportEmail}`}>
          {settings.supportEmail}
        </a>
      </header>
      <main id="main" className="portal__main" tabIndex={-1}>
        {children}
        {supportLine ? (
          <p className="portal__support-line">
            {before}
            {mail}
            {after}
          </p>
        ) : null}
        <p className="portal__disclosure">{messages.disclosure}</p>
      </main>
      <footer className="portal__footer">
        <p>{format(messages.copyright, new Date().getFullYear())}</p>
        <p>{format(messages.version, settings.version)}</p>
        <nav aria-label={messages.footerNav}>
          <ul className="portal__footer-links">
            <li>
              <a href="#/info/browsers">{messages.browserRequirements}</a>
            </li>
            <li>
              <a href="#/info/agreement">{messages.userAgreement}</a>
            </li>
            <li>
              <a href="#/info/privacy">{messages.privacy}</a>
            </li>
            <li>
              <a href="#/info/security">{messages.security}</a>
            </li>
          </ul>
        </nav>
      </footer>
    </div>
  );
}
