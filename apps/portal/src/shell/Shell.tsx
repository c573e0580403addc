import { languageNames, languages } from '@gatehouse/i18n';
import { AppShell, useAnnounce } from '@gatehouse/ui';
import { type ReactNode, useEffect, useRef } from 'react';
import { useLanguage } from '../language.tsx';
import { settings } from '../settings.ts';
import { t } from '../texts.ts';
import './Shell.css';

/**
 * Portal spec §1: header, disclosure, support e-mail, footer with copyright, version and links;
 * and the language switch (issue 15), each language named in itself.
 */
export function Shell({ children, supportLine }: { children: ReactNode; supportLine?: 'login' | 'logout' }) {
  const { language, choose } = useLanguage();
  // A switch is said, in the new language, once its texts are in (focus stays on the switch).
  const announce = useAnnounce();
  const lastLanguage = useRef(language);
  useEffect(() => {
    if (lastLanguage.current === language) return;
    lastLanguage.current = language;
    announce(t('shell.languageChanged'));
  }, [language, announce]);
  const mail = <a href={`mailto:${settings.supportEmail}`}>{settings.supportEmail}</a>;
  // The address is a link inside the sentence, wherever the language puts it.
  const [before, after] = t(
    supportLine === 'logout' ? 'shell.supportLineLogout' : 'shell.supportLine',
    '\0',
  ).split('\0');
  return (
    <AppShell
      className="portal"
      skipText={t('shell.skipToContent')}
      header={
        <>
          <span className="gh-shell__product">{t('shell.productName')}</span>
          <nav className="portal__languages" aria-label={t('shell.language')}>
            <ul>
              {languages.map((code) => (
                <li key={code}>
                  <button
                    type="button"
                    lang={code}
                    aria-pressed={code === language}
                    onClick={() => choose(code)}
                  >
                    {languageNames[code]}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          <a className="portal__support" href={`mailto:${settings.supportEmail}`}>
            {settings.supportEmail}
          </a>
        </>
      }
      footer={
        <footer className="portal__footer">
          <p>{t('shell.copyright', new Date().getFullYear())}</p>
          <p>{t('shell.version', settings.version)}</p>
          <nav aria-label={t('shell.footerNav')}>
            <ul className="portal__footer-links">
              <li>
                <a href="#/info/browsers">{t('shell.browserRequirements')}</a>
              </li>
              <li>
                <a href="#/info/agreement">{t('shell.userAgreement')}</a>
              </li>
              <li>
                <a href="#/info/privacy">{t('shell.privacy')}</a>
              </li>
              <li>
                <a href="#/info/security">{t('shell.security')}</a>
              </li>
            </ul>
          </nav>
        </footer>
      }
    >
      {children}
      {supportLine ? (
        <p className="portal__support-line">
          {before}
          {mail}
          {after}
        </p>
      ) : null}
      <p className="portal__disclosure">{t('shell.disclosure')}</p>
    </AppShell>
  );
}
