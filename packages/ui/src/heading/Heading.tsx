import { type ComponentPropsWithoutRef, forwardRef } from 'react';
import { cx } from '../internal/cx.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import './Heading.css';

export const headingLevels = [1, 2, 3, 4, 5, 6] as const;
export type HeadingLevel = (typeof headingLevels)[number];

export interface HeadingProps extends ComponentPropsWithoutRef<'h2'> {
  /** The h1-h6 level; default 2. */
  level?: HeadingLevel;
}

export const Heading = forwardRef<HTMLHeadingElement, HeadingProps>(function Heading(
  { level, className, ...rest },
  ref,
) {
  const levelValue = useEnum('Heading', 'level', level, headingLevels, 2);
  const Tag = `h${levelValue}` as const;
  return <Tag ref={ref} className={cx('gh-heading', className)} data-level={levelValue} {...rest} />;
});
