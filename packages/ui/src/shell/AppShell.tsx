import type { ReactNode } from 'react';
import { cx } from '../internal/cx.ts';
import './shell.css';

export type AppShellProps = {
  /** The app's own root class (its additions to the frame). */
  className?: string;
  /** The skip button's text, in the page's language. */
  skipText: string;
  /** What the header holds after nothing else: the product name, the navigation, who is signed in. */
  header: ReactNode;
  /** A footer after the main landmark, when the app has one. */
  footer?: ReactNode;
  children: ReactNode;
};

/**
 * The apps' page frame: a skip button to the main landmark, the header, the main landmark (id
 * "main", focusable by script), then an optional footer. The skip control is a button, not a
 * link: in a hash-routed app '#main' would be read as a route.
 */
export function AppShell({ className, skipText, header, footer, children }: AppShellProps) {
  return (
    <div className={cx('gh-shell', className)}>
      <button
        type="button"
        className="gh-shell__skip"
        onClick={() => document.getElementById('main')?.focus()}
      >
        {skipText}
      </button>
      <header className="gh-shell__header">{header}</header>
      <main id="main" className="gh-shell__main" tabIndex={-1}>
        {children}
      </main>
      {footer}
    </div>
  );
}
