import { useEffect } from 'react';
import { messages } from './messages.ts';

/** WCAG 2.4.2: each route names itself in the window title. */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} – ${messages.productName}`;
  }, [title]);
}
