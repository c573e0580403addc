import { useEffect } from 'react';

/**
 * Warns on the console, in development builds only, when an enumerated prop gets a value outside
 * its allowed list. `undefined` is never reported: it means "use the default".
 */
export function warnUnknown(
  component: string,
  prop: string,
  value: unknown,
  allowed: readonly unknown[],
): boolean {
  if (value === undefined || allowed.includes(value)) return false;
  if (import.meta.env.DEV) {
    console.warn(
      `[@gatehouse/ui] ${component}: unknown ${prop} "${String(value)}"; expected one of ${allowed
        .map((v) => `"${String(v)}"`)
        .join(', ')}.`,
    );
  }
  return true;
}

/**
 * Returns `value` when it is allowed, else `fallback`; the warning is raised once per distinct
 * value, after render (so a render stays pure and StrictMode's double render does not warn twice).
 */
export function useEnum<T>(
  component: string,
  prop: string,
  value: unknown,
  allowed: readonly T[],
  fallback: T,
): T {
  useEffect(() => {
    warnUnknown(component, prop, value, allowed);
  }, [component, prop, value, allowed]);
  return value !== undefined && (allowed as readonly unknown[]).includes(value) ? (value as T) : fallback;
}
