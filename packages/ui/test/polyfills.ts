/** jsdom lacks CSS.escape, which user-event's radio arrow-key handling needs. */
if (typeof globalThis.CSS === 'undefined') {
  (globalThis as { CSS?: unknown }).CSS = {};
}
if (typeof globalThis.CSS.escape !== 'function') {
  globalThis.CSS.escape = (value: string) =>
    String(value).replace(
      /^\d|[^a-zA-Z0-9_\u00A0-\uFFFF-]/g,
      (ch) => `\\${ch.codePointAt(0)?.toString(16)} `,
    );
}

/** jsdom lacks ResizeObserver, which Radix's floating positioning (tooltip, popover) uses. */
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  } as unknown as typeof ResizeObserver;
}
