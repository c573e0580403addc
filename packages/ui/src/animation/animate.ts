import { prefersReducedMotion } from '../internal/motion.ts';

/** Ease-in-out cubic: slow start, fast middle, slow end. */
export function easeInOutCubic(t: number): number {
  return t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2;
}

export const animationDefaults = { duration: 1000, fps: 60, easing: easeInOutCubic } as const;

/** Detail of the `gh-animation-end` event and the argument of onComplete. */
export interface AnimationEnd {
  property: string;
  value: number;
}

export interface AnimateOptions {
  /** A numeric style property in camelCase or kebab-case: 'opacity', 'height', 'marginTop'... */
  property: string;
  /** Start value; default: the current computed value (0 when not numeric). */
  from?: number;
  to: number;
  /** Appended to the number: 'px' (default for lengths) or '' (opacity, z-index...). */
  unit?: string;
  /** Default 1000 ms. */
  duration?: number;
  /** Frames per second; default 60. */
  fps?: number;
  /** Default ease-in-out cubic. */
  easing?: (t: number) => number;
  /** Called once with the final value; a `gh-animation-end` CustomEvent is also dispatched on the element. */
  onComplete?: (end: AnimationEnd) => void;
}

const unitless = new Set([
  'opacity',
  'zIndex',
  'z-index',
  'flexGrow',
  'flex-grow',
  'flexShrink',
  'flex-shrink',
  'scale',
]);

function kebab(property: string): string {
  return property.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * Animates one numeric style property of an element frame by frame (CSSOM writes, so it works
 * under a strict CSP). Under reduced motion it jumps to the end at once. Returns a function that
 * stops the animation where it is (no completion event then).
 */
export function animate(element: HTMLElement, options: AnimateOptions): () => void {
  const {
    property,
    to,
    duration = animationDefaults.duration,
    fps = animationDefaults.fps,
    easing = animationDefaults.easing,
    onComplete,
  } = options;
  const name = kebab(property);
  const unit = options.unit ?? (unitless.has(property) ? '' : 'px');
  const from = options.from ?? (Number.parseFloat(getComputedStyle(element).getPropertyValue(name)) || 0);
  const set = (value: number) => element.style.setProperty(name, `${value}${unit}`);
  const finish = () => {
    set(to);
    const end: AnimationEnd = { property, value: to };
    element.dispatchEvent(new CustomEvent<AnimationEnd>('gh-animation-end', { detail: end }));
    onComplete?.(end);
  };

  if (duration <= 0 || prefersReducedMotion()) {
    finish();
    return () => {};
  }
  set(from);
  // Each frame places the value by elapsed time, so a late frame never slows the animation down.
  const start = Date.now();
  const timer = setInterval(() => {
    const t = Math.min(1, (Date.now() - start) / duration);
    if (t >= 1) {
      clearInterval(timer);
      finish();
      return;
    }
    set(from + (to - from) * easing(t));
  }, 1000 / Math.max(1, fps));
  return () => clearInterval(timer);
}
