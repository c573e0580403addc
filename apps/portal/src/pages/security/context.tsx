import type { SecurityOverviewData } from '@gatehouse/contract/client';
import { createContext, useContext, useEffect, useId } from 'react';
import type { SecurityAnswer, SecurityCall } from './securityApi.ts';

export type SecurityPageContext = {
  overview: SecurityOverviewData;
  /**
   * One call of the page. The page itself takes a step-up answer (the widget comes back) and a
   * signed-out one (to login): then this gives null and the caller does nothing more.
   */
  run<T>(
    call: SecurityCall,
    body?: unknown,
  ): Promise<Exclude<SecurityAnswer<T>, { kind: 'stepUp' | 'signedOut' }> | null>;
  /** Reads the overview again (after a change: the lists and the activity). */
  reload(): Promise<void>;
  /** A form says whether its errors stand (the window title starts with 'Error: ' while any do). */
  setFormErrors(form: string, hasErrors: boolean): void;
};

export const SecurityContext = createContext<SecurityPageContext | null>(null);

export function useSecurity(): SecurityPageContext {
  const value = useContext(SecurityContext);
  if (!value) throw new Error('useSecurity outside the security page');
  return value;
}

/** Reports this form's errors to the page's title while it is mounted. */
export function useFormErrors(hasErrors: boolean) {
  const { setFormErrors } = useSecurity();
  const form = useId();
  useEffect(() => {
    setFormErrors(form, hasErrors);
    return () => setFormErrors(form, false);
  }, [form, hasErrors, setFormErrors]);
}
