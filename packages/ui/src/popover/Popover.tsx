import * as RadixPopover from '@radix-ui/react-popover';
import { type KeyboardEvent, type ReactElement, type ReactNode, useRef, useState } from 'react';
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

const tabbable =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Non-modal popover (Radix): opens on the trigger, moves focus inside, closes on Escape, on the
 * Close button or a click outside, and returns focus to the trigger. Being non-modal, it does not
 * keep Tab in a loop: Tab past its last control goes on to what follows the trigger in the page,
 * Shift+Tab before its first goes back to the trigger, and either way it closes.
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
  const [ownOpen, setOwnOpen] = useState(defaultOpen ?? false);
  const isOpen = open ?? ownOpen;
  const setOpen = (next: boolean) => {
    if (open === undefined) setOwnOpen(next);
    onOpenChange?.(next);
  };
  const triggerRef = useRef<HTMLButtonElement>(null);
  const leaving = useRef(false);
  const tabOut = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
    const inside = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(tabbable));
    const edge = event.shiftKey ? inside[0] : inside[inside.length - 1];
    if (inside.length > 0 && document.activeElement !== edge) return;
    const from = triggerRef.current;
    if (!from) return;
    event.preventDefault();
    const content = event.currentTarget;
    let target: HTMLElement | undefined = from;
    if (!event.shiftKey) {
      const all = Array.from(document.querySelectorAll<HTMLElement>(tabbable)).filter(
        (el) => !content.contains(el),
      );
      target = all[all.indexOf(from) + 1] ?? from;
    }
    leaving.current = target !== from;
    setOpen(false);
    target.focus();
  };
  return (
    <RadixPopover.Root open={isOpen} onOpenChange={setOpen}>
      <RadixPopover.Trigger asChild ref={triggerRef}>
        {trigger}
      </RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content
          className={cx('gh-popover', className)}
          side={sideValue}
          sideOffset={6}
          collisionPadding={8}
          aria-label={typeof title === 'string' ? title : undefined}
          onKeyDown={tabOut}
          onCloseAutoFocus={(event) => {
            // Left by Tab: focus is where Tab took it, not back on the trigger.
            if (leaving.current) event.preventDefault();
            leaving.current = false;
          }}
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
