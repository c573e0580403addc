import * as RadixTooltip from '@radix-ui/react-tooltip';
import type { ReactElement, ReactNode } from 'react';
import { cx } from '../internal/cx.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import './Tooltip.css';

export const tooltipSides = ['top', 'right', 'bottom', 'left'] as const;
export type TooltipSide = (typeof tooltipSides)[number];

export interface TooltipProps {
  /** The tooltip text: a short description of the trigger, never essential information. */
  content: ReactNode;
  /** One focusable element (a Button, a link); it gets aria-describedby while the tooltip shows. */
  children: ReactElement;
  /** Default 'top'. */
  side?: TooltipSide;
  /** Hover delay in ms before it opens (focus opens at once); default 300. */
  delay?: number;
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  className?: string;
}

/** Shows on hover and on keyboard focus, hides on Escape, blur or pointer leave (Radix Tooltip). */
export function Tooltip({
  content,
  children,
  side,
  delay = 300,
  open,
  defaultOpen,
  onOpenChange,
  className,
}: TooltipProps) {
  const sideValue = useEnum('Tooltip', 'side', side, tooltipSides, 'top');
  return (
    <RadixTooltip.Provider delayDuration={delay}>
      <RadixTooltip.Root open={open} defaultOpen={defaultOpen} onOpenChange={onOpenChange}>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        {/* Not portalled: the tip stays next to its trigger, inside the same landmark. */}
        <RadixTooltip.Content className={cx('gh-tooltip', className)} side={sideValue} sideOffset={6}>
          {content}
          <RadixTooltip.Arrow className="gh-tooltip__arrow" />
        </RadixTooltip.Content>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
