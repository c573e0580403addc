import { type ComponentPropsWithoutRef, forwardRef, type ReactNode, useEffect, useRef } from 'react';
import { cx } from '../internal/cx.ts';
import { type Size, sizes } from '../internal/sizes.ts';
import { useMergedRef } from '../internal/useMergedRef.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import { uiMessages } from '../messages.ts';
import { VisuallyHidden } from '../visually-hidden/VisuallyHidden.tsx';
import './Spinner.css';

export const spinnerColors = ['neutral', 'inverse'] as const;
export type SpinnerColor = (typeof spinnerColors)[number];
export const spinnerSizes = sizes;
export type SpinnerSize = Size;

/** The rotating ring on its own, decorative (aria-hidden); used by Spinner and the loading Button. */
export function SpinnerGraphic({ className }: { className?: string }) {
  return (
    <svg
      className={cx('gh-spinner-graphic', className)}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
    >
      <circle
        className="gh-spinner-graphic__track"
        cx="12"
        cy="12"
        r="9"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
      />
      <path
        d="M21 12a9 9 0 0 0-9-9"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  );
}

export interface SpinnerProps extends Omit<ComponentPropsWithoutRef<'div'>, 'color' | 'hidden'> {
  /** 'neutral' (default) on light surfaces, 'inverse' on the primary colour. */
  color?: SpinnerColor;
  /** Replaces the rotating ring. */
  icon?: ReactNode;
  /** Lays the ring and text out in a row, inside running content. */
  inline?: boolean;
  /** Default 'Loading…'. */
  primaryText?: ReactNode;
  /** Default 'This could take a moment.'; pass null for none. */
  secondaryText?: ReactNode;
  /** small hides the visible text (screen readers still get it); default medium. */
  size?: SpinnerSize;
  /** Exposes the spinner as a polite status (role="status"). */
  announce?: boolean;
  /** Hides the spinner; focus goes back to where it was before it was shown. */
  hidden?: boolean;
  /** Move focus to the spinner while it is shown (default true). */
  takeFocus?: boolean;
}

/**
 * A loading indicator. While shown it takes focus (so a screen reader reads it and keyboard users
 * are not left on a control that vanished); when hidden or unmounted, focus returns to the element
 * that had it before.
 */
export const Spinner = forwardRef<HTMLElement, SpinnerProps>(function Spinner(
  {
    color,
    icon,
    inline = false,
    primaryText = uiMessages.loading,
    secondaryText = uiMessages.loadingSecondary,
    size,
    announce = false,
    hidden = false,
    takeFocus = true,
    className,
    ...rest
  },
  forwardedRef,
) {
  const colorValue = useEnum('Spinner', 'color', color, spinnerColors, 'neutral');
  const sizeValue = useEnum('Spinner', 'size', size, spinnerSizes, 'medium');
  const ownRef = useRef<HTMLElement>(null);
  const ref = useMergedRef(ownRef, forwardedRef);

  useEffect(() => {
    if (hidden || !takeFocus) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    ownRef.current?.focus({ preventScroll: true });
    return () => {
      // Give focus back only if it is still on the spinner (or was lost with it to the body).
      const active = document.activeElement;
      const lost = active === null || active === document.body || active === ownRef.current;
      if (lost && previous?.isConnected) previous.focus({ preventScroll: true });
    };
  }, [hidden, takeFocus]);

  const textHidden = sizeValue === 'small';
  const primary = primaryText ? <span className="gh-spinner__primary">{primaryText}</span> : null;
  const secondary = secondaryText ? <span className="gh-spinner__secondary">{secondaryText}</span> : null;
  // Inline spinners sit in running text, so they are phrasing content (span), not a div.
  const Root = inline ? 'span' : 'div';
  return (
    <Root
      ref={ref}
      className={cx('gh-spinner', className)}
      role={announce ? 'status' : undefined}
      tabIndex={-1}
      hidden={hidden}
      data-color={colorValue}
      data-size={sizeValue}
      data-inline={inline || undefined}
      {...rest}
    >
      <span className="gh-spinner__icon">{icon ?? <SpinnerGraphic />}</span>
      {textHidden ? (
        <VisuallyHidden>
          {primary} {secondary}
        </VisuallyHidden>
      ) : (
        <>
          {primary}
          {secondary}
        </>
      )}
    </Root>
  );
});
