import * as RadixPopover from '@radix-ui/react-popover';
import type { ReactElement, ReactNode } from 'react';
import { Button } from '../button/Button.tsx';
import { Icon } from '../icon/Icon.tsx';
import { cx } from '../internal/cx.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import { uiMessages } from '../messages.ts';
import { tooltipSides } from '../tooltip/Tooltip.tsx';
import './Popover.css';

export const popoverSides = tooltipSides;
export type PopoverSide = (typeof popoverSides)[number];

export interface PopoverProps {
  /** One button that opens it (gets aria-expanded and aria-controls). */
  trigger: ReactElement;
  /** Heading of the popover; also its accessible name. */
  title: ReactNode;
  children?: ReactNode;
  /** Default 'bottom'. */
  side?: PopoverSide;
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  className?: string;
}

/**
 * Non-modal popover (Radix): opens on the trigger, moves focus inside, closes on Escape, on the
 * Close button or a click outside, and returns focus to the trigger.
 */
export function Popover({
  trigger,
  title,
  children,
  side,
  open,
  defaultOpen,
  onOpenChange,
  className,
}: PopoverProps) {
  const sideValue = useEnum('Popover', 'side', side, popoverSides, 'bottom');
  return (
    <RadixPopover.Root open={open} defaultOpen={defaultOpen} onOpenChange={onOpenChange}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content
          className={cx('gh-popover', className)}
          side={sideValue}
          sideOffset={6}
          collisionPadding={8}
          aria-label={typeof title === 'string' ? title : undefined}
        >
          <div className="gh-popover__header">
            <p className="gh-popover__title">{title}</p>
            <RadixPopover.Close asChild>
              <Button variant="tertiary" size="small" aria-label={uiMessages.close}>
                <Icon name="close" size="small" />
              </Button>
            </RadixPopover.Close>
          </div>
          <div className="gh-popover__body">{children}</div>
          <RadixPopover.Arrow className="gh-popover__arrow" />
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
