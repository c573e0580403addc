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
  /**
   * For a page that already has its landmarks (a host page embedding the widget, the gallery):
   * header, main and footer become plain divs.
   */
  embedded?: boolean;
}

/** The sign-in page frame: header, a main landmark holding the card, footer. */
export const PageLayout = forwardRef<HTMLDivElement, PageLayoutProps>(function PageLayout(
  { header, footer, children, mainId = 'main', embedded = false, className, ...rest },
  ref,
) {
  const Header = embedded ? 'div' : 'header';
  const Main = embedded ? 'div' : 'main';
  const Footer = embedded ? 'div' : 'footer';
  return (
    <div ref={ref} className={cx('gh-page', className)} data-embedded={embedded || undefined} {...rest}>
      {header ? <Header className="gh-page__header">{header}</Header> : null}
      <Main className="gh-page__main" id={mainId} tabIndex={-1}>
        {children}
      </Main>
      {footer ? <Footer className="gh-page__footer">{footer}</Footer> : null}
    </div>
  );
});
