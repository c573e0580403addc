import { type ComponentPropsWithoutRef, forwardRef } from 'react';
import { Icon } from '../icon/Icon.tsx';
import { cx } from '../internal/cx.ts';
import { uiMessages } from '../messages.ts';
import { VisuallyHidden } from '../visually-hidden/VisuallyHidden.tsx';
import './Link.css';

export interface LinkProps extends ComponentPropsWithoutRef<'a'> {
  /**
   * Opens in a new window (target _blank, rel noopener noreferrer) and tells screen readers so
   * with `newWindowText` (default '(opens in a new window)').
   */
  newWindow?: boolean;
  newWindowText?: string;
}

export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { newWindow = false, newWindowText = uiMessages.newWindow, className, children, ...rest },
  ref,
) {
  return (
    <a
      ref={ref}
      className={cx('gh-link', className)}
      {...(newWindow ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
      {...rest}
    >
      {children}
      {newWindow ? (
        <>
          {' '}
          <VisuallyHidden>{newWindowText}</VisuallyHidden>
          <Icon name="external" size="small" className="gh-link__icon" />
        </>
      ) : null}
    </a>
  );
});
