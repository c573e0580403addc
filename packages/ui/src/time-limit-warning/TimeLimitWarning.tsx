import { useEffect, useRef, useState } from 'react';
import { Button } from '../button/Button.tsx';
import { Dialog, DialogClose } from '../dialog/Dialog.tsx';

export interface TimeLimitWarningProps {
  open: boolean;
  /** The dialog's heading and accessible name ('Your session is about to end'). */
  title: string;
  /** What ends, when, and what the action does: the dialog's accessible description. */
  description: string;
  /** The one action that extends the time ('Stay signed in', 'Verify again'); it takes focus. */
  actionText: string;
  onAction: () => void;
  /** Escape, the Close button or `dismissText`'s button: the dialog closes; the host decides what that means. */
  onDismiss: () => void;
  /** A second button that only closes the dialog ('Not now'); none when closing is the action too. */
  dismissText?: string;
  /** The action is under way: its button says so (aria-disabled, `busyText` announced). */
  busy?: boolean;
  busyText?: string;
}

/**
 * The warning before a time limit ends (WCAG 2.2.1 Timing Adjustable: warned, with at least 20 s to
 * extend it by one simple action; docs/decisions/049-time-limit-warnings.md). A modal dialog
 * (packages/ui Dialog): focus moves to the action, so a screen reader reads the title and the time
 * left as the dialog's name and description; Escape and Close call `onDismiss`; on close focus goes
 * back where it was (the field being typed in), and nothing on the page behind is touched.
 */
export function TimeLimitWarning({
  open,
  title,
  description,
  actionText,
  onAction,
  onDismiss,
  dismissText,
  busy,
  busyText,
}: TimeLimitWarningProps) {
  const action = useRef<HTMLButtonElement>(null);
  /** What had focus when the warning opened: focus goes back there when it closes. */
  const returnTo = useRef<Element | null>(null);
  return (
    <Dialog
      className="gh-time-limit-warning"
      title={title}
      description={description}
      open={open}
      onOpenChange={(next) => {
        if (!next) onDismiss();
      }}
      onOpenAutoFocus={(event) => {
        event.preventDefault();
        returnTo.current = document.activeElement;
        action.current?.focus();
      }}
      // Without a trigger, Radix would leave focus on the body: back to the field being typed in,
      // unless it is gone or hidden (a step-up took the page's place: its heading has focus then).
      onCloseAutoFocus={(event) => {
        event.preventDefault();
        const target = returnTo.current;
        returnTo.current = null;
        if (target instanceof HTMLElement && target.isConnected && shown(target)) target.focus();
      }}
      footer={
        <>
          <Button ref={action} variant="primary" onClick={onAction} loading={busy} loadingText={busyText}>
            {actionText}
          </Button>
          {dismissText ? (
            <DialogClose asChild>
              <Button variant="secondary">{dismissText}</Button>
            </DialogClose>
          ) : null}
        </>
      }
    />
  );
}

/** Whether an element is rendered (not inside a hidden ancestor): the browser's own check where it has one. */
const shown = (element: HTMLElement) =>
  typeof element.checkVisibility === 'function' ? element.checkVisibility() : !element.closest('[hidden]');

/**
 * Whole seconds left until `deadline` (a `Date.now()` instant), counted down once a second while
 * `running`; null without a deadline.
 */
export function useSecondsLeft(deadline: number | null, running = true): number | null {
  const left = () => (deadline === null ? null : Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
  const [seconds, setSeconds] = useState(left);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `left` reads the deadline it names
  useEffect(() => {
    setSeconds(left());
    if (deadline === null || !running) return;
    const timer = window.setInterval(() => setSeconds(left()), 1000);
    return () => window.clearInterval(timer);
  }, [deadline, running]);
  return seconds;
}

/**
 * Runs `onWarn` `leadMs` before `deadline` and `onEnd` at it (each once per deadline; a deadline in
 * the past ends at once). A new deadline (the time was extended) starts over.
 */
export function useTimeLimit(
  deadline: number | null,
  leadMs: number,
  handlers: { onWarn: () => void; onEnd: () => void },
): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (deadline === null) return;
    const now = Date.now();
    const warn = window.setTimeout(() => latest.current.onWarn(), Math.max(0, deadline - leadMs - now));
    const end = window.setTimeout(() => latest.current.onEnd(), Math.max(0, deadline - now));
    return () => {
      window.clearTimeout(warn);
      window.clearTimeout(end);
    };
  }, [deadline, leadMs]);
}
