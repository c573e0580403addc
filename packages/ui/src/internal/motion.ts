/** Motion defaults in milliseconds; the CSS custom properties of the same names carry them too. */
export const motion = {
  fade: 150,
  expand: 250,
  toastEase: 300,
  toastTimeout: 5000,
  toastExtendedTimeout: 1000,
} as const;

/** True when the user asked the system for reduced motion. */
export function prefersReducedMotion(): boolean {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return false;
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Reads a duration token (e.g. `--gh-duration-fade`) from the element's computed style, so a host
 * that overrides the token changes the JS timing too; falls back to `fallback` ms. Zero under
 * reduced motion.
 */
export function duration(el: Element | null, token: string, fallback: number): number {
  if (prefersReducedMotion()) return 0;
  if (!el || typeof getComputedStyle !== 'function') return fallback;
  const raw = getComputedStyle(el).getPropertyValue(token).trim();
  if (raw === '') return fallback;
  const n = Number.parseFloat(raw);
  if (Number.isNaN(n)) return fallback;
  return raw.endsWith('ms') ? n : raw.endsWith('s') ? n * 1000 : n;
}
