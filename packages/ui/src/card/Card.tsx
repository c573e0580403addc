import { type ComponentPropsWithoutRef, type ElementType, forwardRef } from 'react';
import { cx } from '../internal/cx.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import './Card.css';

/** 448 px for the sign-in screens, 400 px for the one-time code step. */
export const cardWidths = [448, 400] as const;
export type CardWidth = (typeof cardWidths)[number];

export interface CardProps extends ComponentPropsWithoutRef<'div'> {
  /** Default 448; never wider than its container (max-width: 100%). */
  width?: CardWidth;
  /** The element to render, e.g. 'section' or 'main'; default 'div'. */
  as?: ElementType;
}

export const Card = forwardRef<HTMLElement, CardProps>(function Card(
  { width, as: Component = 'div', className, ...rest },
  ref,
) {
  const widthValue = useEnum('Card', 'width', width, cardWidths, 448);
  return <Component ref={ref} className={cx('gh-card', className)} data-width={widthValue} {...rest} />;
});
