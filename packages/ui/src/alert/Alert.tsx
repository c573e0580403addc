import {
  type ComponentPropsWithoutRef,
  forwardRef,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from 'react';
import { flushSync } from 'react-dom';
import { Button } from '../button/Button.tsx';
import { Icon } from '../icon/Icon.tsx';
import { cx } from '../internal/cx.ts';
import { duration, motion } from '../internal/motion.ts';
import { useMergedRef } from '../internal/useMergedRef.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import { uiMessages } from '../messages.ts';
import { VisuallyHidden } from '../visually-hidden/VisuallyHidden.tsx';
import { AlertIcon } from './AlertIcon.tsx';
import './Alert.css';

export const alertVariants = ['critical', 'info', 'confirm', 'warning'] as const;
export type AlertVariant = (typeof alertVariants)[number];

/** critical and warning interrupt (role alert); info and confirm wait their turn (role status). */
export const alertRoles: Record<AlertVariant, 'alert' | 'status'> = {
  critical: 'alert',
  warning: 'alert',
  info: 'status',
  confirm: 'status',
};

export interface AlertProps extends Omit<ComponentPropsWithoutRef<'div'>, 'title'> {
  /** Default 'critical'. */
  variant?: AlertVariant;
  title?: ReactNode;
  children?: ReactNode;
  /** Adds a Dismiss button: the alert fades out over 150 ms, then is removed and onDismiss runs. */
  dismissible?: boolean;
  onDismiss?: () => void;
  /** Accessible name of the dismiss button; default 'Dismiss'. */
  dismissLabel?: string;
  /** The compact inline look (see InlineAlert). */
  inline?: boolean;
}

type AlertState = 'open' | 'closing' | 'closed';

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Where the focus goes when a dismissed alert takes its Dismiss button away: the next control
 * after the alert in document order, else the one before it, else the nearest focusable ancestor.
 */
function focusTargetAfter(alert: HTMLElement): HTMLElement | null {
  const all = [...document.querySelectorAll<HTMLElement>(focusable)].filter(
    (el) => !alert.contains(el) && !el.closest('[hidden], [inert]'),
  );
  const after = all.find((el) => alert.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  const before = all
    .filter((el) => alert.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING)
    .pop();
  return after ?? before ?? alert.parentElement?.closest<HTMLElement>('[tabindex]') ?? null;
}

export const Alert = forwardRef<HTMLDivElement, AlertProps>(function Alert(
  {
    variant,
    title,
    children,
    dismissible = false,
    onDismiss,
    dismissLabel = uiMessages.dismiss,
    inline = false,
    className,
    ...rest
  },
  forwardedRef,
) {
  const variantValue = useEnum('Alert', 'variant', variant, alertVariants, 'critical');
  const [state, setState] = useState<AlertState>('open');
  const ownRef = useRef<HTMLDivElement>(null);
  const ref = useMergedRef(ownRef, forwardedRef);
  const onDismissRef = useRef(onDismiss);
  onDismissRef.current = onDismiss;

  useEffect(() => {
    if (state !== 'closing') return;
    const ms = duration(ownRef.current, '--gh-duration-fade', motion.fade);
    const timer = setTimeout(() => {
      // The focus is on Dismiss (inside the alert): removing the alert would drop it to the body.
      const alert = ownRef.current;
      const hadFocus = alert?.contains(document.activeElement) ?? false;
      const next = hadFocus && alert ? focusTargetAfter(alert) : null;
      // Committed at once, so the focus can be checked (and placed) after the alert has gone.
      flushSync(() => {
        setState('closed');
        onDismissRef.current?.();
      });
      // onDismiss may place the focus itself; otherwise it goes to the next control, or the previous.
      if (hadFocus && (document.activeElement === document.body || document.activeElement === null)) {
        next?.focus();
      }
    }, ms);
    return () => clearTimeout(timer);
  }, [state]);

  if (state === 'closed') return null;
  return (
    <div
      ref={ref}
      role={alertRoles[variantValue]}
      className={cx('gh-alert', className)}
      data-variant={variantValue}
      data-state={state}
      data-inline={inline || undefined}
      {...rest}
    >
      <AlertIcon variant={variantValue} />
      <div className="gh-alert__body">
        {title ? (
          <p className="gh-alert__title">
            <VisuallyHidden>{uiMessages[variantValue]}:</VisuallyHidden> {title}
          </p>
        ) : (
          <VisuallyHidden>{uiMessages[variantValue]}: </VisuallyHidden>
        )}
        <div className="gh-alert__content">{children}</div>
      </div>
      {dismissible && (
        <Button
          className="gh-alert__dismiss"
          variant="tertiary"
          size="small"
          aria-label={dismissLabel}
          onClick={() => setState('closing')}
        >
          <Icon name="close" size="small" />
        </Button>
      )}
    </div>
  );
});

export type InlineAlertProps = Omit<AlertProps, 'inline'>;

/** The compact alert that sits inside a form or next to a field; same variants and roles. */
export const InlineAlert = forwardRef<HTMLDivElement, InlineAlertProps>(function InlineAlert(props, ref) {
  return <Alert ref={ref} {...props} inline />;
});
