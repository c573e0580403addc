import { forwardRef, useEffect } from 'react';
import { useWidget } from '../context.tsx';

type Props = {
  id: string;
  /** The heading's text; it also names the window (WCAG 2.4.2). */
  children: string;
  /** Errors stand on the screen: the window title starts with 'Error: ' (GOV.UK). */
  invalid?: boolean;
};

/**
 * The screen heading at the host's chosen level; focusable so it can take focus on arrival.
 * Every screen has one, so every screen names the window after itself.
 */
export const ScreenHeading = forwardRef<HTMLHeadingElement, Props>(function ScreenHeading(
  { id, children, invalid = false },
  ref,
) {
  const { config, setTitle } = useWidget();
  useEffect(() => setTitle(children, invalid), [setTitle, children, invalid]);
  const Tag = `h${config.headingLevel}` as 'h1' | 'h2' | 'h3';
  return (
    <Tag id={id} ref={ref} tabIndex={-1} className="gh-signin__heading">
      {children}
    </Tag>
  );
});
