import { type ComponentPropsWithoutRef, forwardRef, type MouseEvent } from 'react';
import { cx } from '../internal/cx.ts';
import { type Size, sizes } from '../internal/sizes.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import { uiMessages } from '../messages.ts';
import { SpinnerGraphic } from '../spinner/Spinner.tsx';
import { VisuallyHidden } from '../visually-hidden/VisuallyHidden.tsx';
import './Button.css';

/** primary, secondary, tertiary, and our two further variants: link (looks like a link) and danger. */
export const buttonVariants = ['primary', 'secondary', 'tertiary', 'link', 'danger'] as const;
export type ButtonVariant = (typeof buttonVariants)[number];
export const buttonTypes = ['button', 'submit', 'reset'] as const;
export type ButtonType = (typeof buttonTypes)[number];
export const buttonSizes = sizes;
export type ButtonSize = Size;

export interface ButtonProps extends Omit<ComponentPropsWithoutRef<'button'>, 'type'> {
  /** Default 'primary'. */
  variant?: ButtonVariant;
  /** Default 'medium'. */
  size?: ButtonSize;
  /** Default 'button' (never an accidental submit). */
  type?: ButtonType;
  /**
   * Shows a spinner while work runs: a submit button becomes a plain button (no second submit),
   * clicks are ignored, it stays focusable with aria-disabled, and `loadingText` is announced.
   */
  loading?: boolean;
  /** Announced while loading; default 'Loading…'. */
  loadingText?: string;
  /** Stretches to the width of its container. */
  fullWidth?: boolean;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  {
    variant,
    size,
    type,
    loading,
    loadingText = uiMessages.loading,
    fullWidth = false,
    className,
    children,
    onClick,
    ...rest
  },
  ref,
) {
  const variantValue = useEnum('Button', 'variant', variant, buttonVariants, 'primary');
  const sizeValue = useEnum('Button', 'size', size, buttonSizes, 'medium');
  const typeValue = useEnum('Button', 'type', type, buttonTypes, 'button');
  const busy = loading === true;

  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (busy || rest['aria-disabled'] === true || rest['aria-disabled'] === 'true') {
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };

  return (
    <>
      <button
        ref={ref}
        type={busy ? 'button' : typeValue}
        className={cx('gh-button', className)}
        data-variant={variantValue}
        data-size={sizeValue}
        data-full-width={fullWidth || undefined}
        data-loading={busy || undefined}
        {...rest}
        aria-disabled={busy ? true : rest['aria-disabled']}
        onClick={handleClick}
      >
        {busy && (
          <span className="gh-button__spinner">
            <SpinnerGraphic />
          </span>
        )}
        {children}
      </button>
      {loading !== undefined && (
        <VisuallyHidden role="status" aria-live="polite">
          {busy ? loadingText : ''}
        </VisuallyHidden>
      )}
    </>
  );
});
