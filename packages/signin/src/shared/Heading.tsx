import { forwardRef, type ReactNode } from 'react';
import { useWidget } from '../context.tsx';

/** The screen heading at the host's chosen level; focusable so it can take focus on arrival. */
export const ScreenHeading = forwardRef<HTMLHeadingElement, { id: string; children: ReactNode }>(
  function ScreenHeading({ id, children }, ref) {
    const { config } = useWidget();
    const Tag = `h${config.headingLevel}` as 'h1' | 'h2' | 'h3';
    return (
      <Tag id={id} ref={ref} tabIndex={-1} className="gh-signin__heading">
        {children}
      </Tag>
    );
  },
);
