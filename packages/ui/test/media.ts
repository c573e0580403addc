/**
 * jsdom has no matchMedia: this one answers `(prefers-reduced-motion: reduce)` from a switch the
 * tests flip, and `print` queries as false.
 */
let reduced = false;
const listeners = new Set<(event: MediaQueryListEvent) => void>();

export function setReducedMotion(value: boolean): void {
  reduced = value;
}

function matches(query: string): boolean {
  if (query.includes('prefers-reduced-motion')) return query.includes('reduce') ? reduced : !reduced;
  return false;
}

if (typeof window !== 'undefined') {
  window.matchMedia = (query: string): MediaQueryList =>
    ({
      get matches() {
        return matches(query);
      },
      media: query,
      onchange: null,
      addEventListener: (_type: string, fn: (event: MediaQueryListEvent) => void) => listeners.add(fn),
      removeEventListener: (_type: string, fn: (event: MediaQueryListEvent) => void) => listeners.delete(fn),
      addListener: (fn: (event: MediaQueryListEvent) => void) => listeners.add(fn),
      removeListener: (fn: (event: MediaQueryListEvent) => void) => listeners.delete(fn),
      dispatchEvent: () => false,
    }) as unknown as MediaQueryList;
}
