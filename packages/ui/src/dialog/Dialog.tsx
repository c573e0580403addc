import * as RadixDialog from '@radix-ui/react-dialog';
import { type ReactElement, type ReactNode, useEffect } from 'react';
import { Button } from '../button/Button.tsx';
import { Icon } from '../icon/Icon.tsx';
import { cx } from '../internal/cx.ts';
import { uiMessages } from '../messages.ts';
import './Dialog.css';

export interface DialogProps {
  /** The dialog's heading and accessible name. */
  title: ReactNode;
  /** A line under the title, read as the accessible description. */
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom; wrap a closing one in DialogClose. */
  footer?: ReactNode;
  /** A button that opens it; focus returns to it on close. */
  trigger?: ReactElement;
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  /**
   * Runs when the dialog has closed and is about to return focus (to the trigger): the moment to
   * start what the dialog confirmed, so any focus move of that action comes after.
   */
  onCloseAutoFocus?: (event: Event) => void;
  /** Runs as the dialog opens, before focus moves in: prevent the event to place focus yourself. */
  onOpenAutoFocus?: (event: Event) => void;
  className?: string;
}

/**
 * Modal dialog (Radix): focus moves in and is trapped, the page behind is inert, Escape and the
 * Close button close it, and focus returns to the trigger.
 */
export function Dialog({
  title,
  description,
  children,
  footer,
  trigger,
  open,
  defaultOpen,
  onOpenChange,
  onCloseAutoFocus,
  onOpenAutoFocus,
  className,
}: DialogProps) {
  return (
    <RadixDialog.Root open={open} defaultOpen={defaultOpen} onOpenChange={onOpenChange}>
      {trigger ? <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger> : null}
      <RadixDialog.Portal>
        <Backdrop />
        <RadixDialog.Content
          className={cx('gh-dialog', className)}
          {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
          {...(onOpenAutoFocus ? { onOpenAutoFocus } : {})}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="gh-dialog__header">
            <RadixDialog.Title className="gh-dialog__title">{title}</RadixDialog.Title>
            <RadixDialog.Close asChild>
              <Button variant="tertiary" size="small" aria-label={uiMessages.close}>
                <Icon name="close" size="small" />
              </Button>
            </RadixDialog.Close>
          </div>
          {description ? (
            <RadixDialog.Description className="gh-dialog__description">
              {description}
            </RadixDialog.Description>
          ) : null}
          {children}
          {footer ? <div className="gh-dialog__footer">{footer}</div> : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/**
 * The dimmed page behind the dialog. Radix's own Overlay is not used: its scroll lock injects a
 * <style> element at runtime, which a strict Content-Security-Policy (style-src 'self') blocks.
 * This one locks scrolling through the CSSOM instead, which CSP allows.
 */
function Backdrop() {
  useEffect(() => {
    const root = document.documentElement;
    const previous = root.style.overflow;
    root.style.overflow = 'hidden';
    return () => {
      root.style.overflow = previous;
    };
  }, []);
  return <div className="gh-dialog__overlay" aria-hidden="true" />;
}

/** Makes its child button close the surrounding Dialog. */
export const DialogClose = RadixDialog.Close;
