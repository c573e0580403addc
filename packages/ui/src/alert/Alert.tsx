import {
  type ComponentPropsWithoutRef,
  forwardRef,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from 'react';
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
      setState('closed');
      onDismissRef.current?.();
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
