import { type ComponentPropsWithoutRef, forwardRef, useEffect } from 'react';
import { cx } from '../internal/cx.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import { iconPaths } from './paths.ts';
import './Icon.css';

export const iconNames = Object.keys(iconPaths) as Array<keyof typeof iconPaths>;
export type IconName = keyof typeof iconPaths;
export const iconSizes = ['xsmall', 'small', 'medium', 'large'] as const;
export type IconSize = (typeof iconSizes)[number];
/** Glyphs too detailed to read at 12 px; at size xsmall they warn and render small. */
export const iconsWithoutXsmall: readonly IconName[] = [
  'info',
  'warning',
  'error',
  'success',
  'lock',
  'phone',
  'mail',
  'eye',
  'device',
  'external',
];

export interface IconProps extends Omit<ComponentPropsWithoutRef<'svg'>, 'name'> {
  name: IconName;
  /** Default 'medium' (20 px); xsmall 12, small 16, large 24. */
  size?: IconSize;
  /** A text alternative; without it the icon is decorative (aria-hidden). */
  label?: string;
}

export const Icon = forwardRef<SVGSVGElement, IconProps>(function Icon(
  { name, size, label, className, ...rest },
  ref,
) {
  const nameValue = useEnum('Icon', 'name', name, iconNames, 'info');
  const sizeValue = useEnum('Icon', 'size', size, iconSizes, 'medium');
  const unavailable = sizeValue === 'xsmall' && iconsWithoutXsmall.includes(nameValue);
  useEffect(() => {
    if (unavailable && import.meta.env.DEV) {
      console.warn(`[@gatehouse/ui] Icon: "${nameValue}" is not available at size "xsmall"; using "small".`);
    }
  }, [unavailable, nameValue]);
  const labelled = label !== undefined && label !== '';
  return (
    <svg
      ref={ref}
      viewBox="0 0 24 24"
      className={cx('gh-icon', className)}
      data-size={unavailable ? 'small' : sizeValue}
      data-name={nameValue}
      focusable="false"
      role={labelled ? 'img' : undefined}
      aria-label={labelled ? label : undefined}
      aria-hidden={labelled ? undefined : true}
      {...rest}
    >
      {labelled ? <title>{label}</title> : null}
      <path d={iconPaths[nameValue]} />
    </svg>
  );
});
