import * as RadixToast from '@radix-ui/react-toast';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { type AlertVariant, alertVariants } from '../alert/Alert.tsx';
import { Button } from '../button/Button.tsx';
import { Icon } from '../icon/Icon.tsx';
import { cx } from '../internal/cx.ts';
import { duration, motion } from '../internal/motion.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import { uiMessages } from '../messages.ts';
import './Toast.css';

export const toastVariants = alertVariants;
export type ToastVariant = AlertVariant;

export interface ToastProps {
  title: ReactNode;
  message?: ReactNode;
  /** Default 'info'. */
  variant?: ToastVariant;
  /** Controlled open state; uncontrolled (open at first) when omitted. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Time before it closes by itself; default 5000 ms; Infinity keeps it until closed. */
  timeout?: number;
  /** Time it stays after the pointer or focus leaves it; default 1000 ms. */
  extendedTimeout?: number;
  className?: string;
}

/**
 * One notification, announced politely. It closes after `timeout`; while hovered or focused it
 * stays, and after the pointer or focus leaves it closes after `extendedTimeout`. It slides in and
 * fades out over 300 ms (ease). Render it inside a ToastProvider.
 */
export function Toast({
  title,
  message,
  variant,
  open,
  onOpenChange,
  timeout = motion.toastTimeout,
  extendedTimeout = motion.toastExtendedTimeout,
  className,
}: ToastProps) {
  const variantValue = useEnum('Toast', 'variant', variant, toastVariants, 'info');
  const [ownOpen, setOwnOpen] = useState(true);
  const isOpen = open ?? ownOpen;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const hovered = useRef(false);
  const focused = useRef(false);
  const onOpenChangeRef = useRef(onOpenChange);
  onOpenChangeRef.current = onOpenChange;
  const controlled = open !== undefined;

  const setOpen = useCallback(
    (next: boolean) => {
      if (!controlled) setOwnOpen(next);
      onOpenChangeRef.current?.(next);
    },
    [controlled],
  );
  const stop = () => clearTimeout(timer.current);
  const start = useCallback(
    (ms: number) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setOpen(false), ms);
    },
    [setOpen],
  );

  useEffect(() => {
    if (!isOpen || !Number.isFinite(timeout)) return;
    start(timeout);
    return () => clearTimeout(timer.current);
  }, [isOpen, timeout, start]);

  const leave = () => {
    if (!hovered.current && !focused.current && isOpen && Number.isFinite(timeout)) start(extendedTimeout);
  };

  return (
    <RadixToast.Root
      className={cx('gh-toast', className)}
      data-variant={variantValue}
      type="background"
      duration={Number.POSITIVE_INFINITY}
      open={isOpen}
      onOpenChange={setOpen}
      onPointerEnter={() => {
        hovered.current = true;
        stop();
      }}
      onPointerLeave={() => {
        hovered.current = false;
        leave();
      }}
      onFocus={() => {
        focused.current = true;
        stop();
      }}
      onBlur={(event) => {
        if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
        focused.current = false;
        leave();
      }}
    >
      <div className="gh-toast__body">
        <RadixToast.Title className="gh-toast__title">{title}</RadixToast.Title>
        {/* A word break for what is read out: 'Success Password changed', never 'SuccessPassword'. */}{' '}
        {message ? (
          <RadixToast.Description className="gh-toast__message">{message}</RadixToast.Description>
        ) : null}
      </div>
      <RadixToast.Close asChild>
        <Button variant="tertiary" size="small" aria-label={uiMessages.close}>
          <Icon name="close" size="small" />
        </Button>
      </RadixToast.Close>
    </RadixToast.Root>
  );
}

export interface ToastOptions extends Omit<ToastProps, 'open' | 'onOpenChange' | 'className'> {}
interface QueuedToast extends ToastOptions {
  id: number;
  open: boolean;
}
export interface ToastApi {
  /** Shows a toast; returns its id. */
  show: (toast: ToastOptions) => number;
  /** Closes a toast early. */
  dismiss: (id: number) => void;
}
const ToastContext = createContext<ToastApi | null>(null);

export interface ToastProviderProps {
  children?: ReactNode;
  /** Accessible name of the notifications region; default 'Notifications'. */
  label?: string;
}

/** Holds the toasts shown with useToast() and the viewport they appear in (F8 jumps to it). */
export function ToastProvider({ children, label = 'Notifications' }: ToastProviderProps) {
  const [toasts, setToasts] = useState<QueuedToast[]>([]);
  const nextId = useRef(1);
  const viewport = useRef<HTMLOListElement>(null);
  const dismiss = useCallback((id: number) => {
    setToasts((list) => list.map((t) => (t.id === id ? { ...t, open: false } : t)));
    // Remove it once the 300 ms exit has run.
    const ms = duration(viewport.current, '--gh-duration-toast', motion.toastEase);
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), ms);
  }, []);
  const show = useCallback((toast: ToastOptions) => {
    const id = nextId.current++;
    setToasts((list) => [...list, { ...toast, id, open: true }]);
    return id;
  }, []);
  const api = useMemo<ToastApi>(() => ({ show, dismiss }), [show, dismiss]);
  return (
    <ToastContext.Provider value={api}>
      <RadixToast.Provider label={label} duration={Number.POSITIVE_INFINITY}>
        {children}
        {toasts.map(({ id, open, ...toast }) => (
          <Toast
            key={id}
            {...toast}
            open={open}
            onOpenChange={(next) => {
              if (!next) dismiss(id);
            }}
          />
        ))}
        <RadixToast.Viewport ref={viewport} className="gh-toast-viewport" />
      </RadixToast.Provider>
    </ToastContext.Provider>
  );
}

/** `show` and `dismiss` for toasts; needs a ToastProvider above. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast needs a <ToastProvider> above it.');
  return api;
}
