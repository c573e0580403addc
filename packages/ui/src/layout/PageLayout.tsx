import { type ComponentPropsWithoutRef, forwardRef, type ReactNode } from 'react';
import { cx } from '../internal/cx.ts';
import './Layout.css';

/** The desktop layout starts at this width (px); below it the card fills the screen. */
export const desktopMinWidth = 512;

export interface PageLayoutProps extends ComponentPropsWithoutRef<'div'> {
  /** Banner content (logo, product name), in a header landmark. */
  header?: ReactNode;
  /** Footer content (legal text, links), in a contentinfo landmark. */
  footer?: ReactNode;
  /** The page's main content, usually one Card. */
  children?: ReactNode;
  /** id of the main landmark, for a skip link; default 'main'. */
  mainId?: string;
}

/** The sign-in page frame: header, a main landmark holding the card, footer. */
export const PageLayout = forwardRef<HTMLDivElement, PageLayoutProps>(function PageLayout(
  { header, footer, children, mainId = 'main', className, ...rest },
  ref,
) {
  return (
    <div ref={ref} className={cx('gh-page', className)} {...rest}>
      {header ? <header className="gh-page__header">{header}</header> : null}
      <main className="gh-page__main" id={mainId} tabIndex={-1}>
        {children}
      </main>
      {footer ? <footer className="gh-page__footer">{footer}</footer> : null}
    </div>
  );
});
