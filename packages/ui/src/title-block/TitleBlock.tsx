import { type ComponentPropsWithoutRef, forwardRef, type ReactNode } from 'react';
import { Heading } from '../heading/Heading.tsx';
import { cx } from '../internal/cx.ts';
import { useEnum } from '../internal/warnUnknown.ts';

import './TitleBlock.css';

export const titleBlockLevels = [2, 3, 4, 5, 6] as const;
export type TitleBlockLevel = (typeof titleBlockLevels)[number];
export const titleBlockBorders = ['none', 'top', 'bottom'] as const;
export type TitleBlockBorder = (typeof titleBlockBorders)[number];

export interface TitleBlockProps extends Omit<ComponentPropsWithoutRef<'header'>, 'title'> {
  title: ReactNode;
  /** Heading level 2 to 6 (default 2); anything else warns and renders level 2. */
  level?: TitleBlockLevel;
  /** Default 'none'. */
  border?: TitleBlockBorder;
  /** Slot under the title: dates, ids, status. */
  metadata?: ReactNode;
  /** Slot beside the title: buttons or links. */
  actions?: ReactNode;
  /** Slot for anything else, under the metadata. */
  more?: ReactNode;
}

export const TitleBlock = forwardRef<HTMLElement, TitleBlockProps>(function TitleBlock(
  { title, level, border, metadata, actions, more, className, ...rest },
  ref,
) {
  const levelValue = useEnum('TitleBlock', 'level', level, titleBlockLevels, 2);
  const borderValue = useEnum('TitleBlock', 'border', border, titleBlockBorders, 'none');
  return (
    <header ref={ref} className={cx('gh-title-block', className)} data-border={borderValue} {...rest}>
      <Heading level={levelValue} className="gh-title-block__title">
        {title}
      </Heading>
      {actions ? <div className="gh-title-block__actions">{actions}</div> : null}
      {metadata ? <div className="gh-title-block__metadata">{metadata}</div> : null}
      {more ? <div className="gh-title-block__more">{more}</div> : null}
    </header>
  );
});
