import { type ComponentPropsWithoutRef, forwardRef } from 'react';
import { cx } from '../internal/cx.ts';
import './VisuallyHidden.css';

export type VisuallyHiddenProps = ComponentPropsWithoutRef<'span'>;

/** Text for screen readers only: present in the accessibility tree, invisible on screen. */
export const VisuallyHidden = forwardRef<HTMLSpanElement, VisuallyHiddenProps>(function VisuallyHidden(
  { className, ...rest },
  ref,
) {
  return <span ref={ref} className={cx('gh-visually-hidden', className)} {...rest} />;
});
