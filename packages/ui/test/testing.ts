import { screen, waitFor } from '@testing-library/react';

/**
 * The error summary whose heading is `title` (GOV.UK Frontend 4.4.0 markup): the wrapper that takes
 * focus. Its `role="alert"` is the container inside it that holds the heading and the links, so
 * the summary cannot be found as an alert by name; this finds the heading, checks that it is
 * inside an alert, and gives the wrapper.
 */
export function getErrorSummary(title: string | RegExp = 'There is a problem'): HTMLElement {
  const heading = screen.getByRole('heading', { name: title });
  const alert = heading.closest('[role="alert"]');
  const summary = alert?.parentElement?.closest<HTMLElement>('.gh-error-summary');
  if (!alert || !summary)
    throw new Error(`The heading '${String(title)}' is not in an error summary's alert`);
  return summary;
}

export function queryErrorSummary(title: string | RegExp = 'There is a problem'): HTMLElement | null {
  return screen.queryByRole('heading', { name: title }) ? getErrorSummary(title) : null;
}

export function findErrorSummary(title: string | RegExp = 'There is a problem'): Promise<HTMLElement> {
  return waitFor(() => getErrorSummary(title));
}

/** The text of `element` as a screen reader reads it: without what is `aria-hidden`. */
export function spokenText(element: Element): string {
  let text = '';
  for (const node of element.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) text += node.textContent ?? '';
    else if (node instanceof Element && node.getAttribute('aria-hidden') !== 'true') text += spokenText(node);
  }
  return text;
}

/** The innermost element a screen reader reads as `text` exactly (a masked number as its words). */
export function getBySpokenText(text: string, container: Element = document.body): HTMLElement {
  const matches = [...container.querySelectorAll<HTMLElement>('*')].filter(
    (element) => spokenText(element).trim() === text,
  );
  const innermost = matches.filter(
    (element) => !matches.some((other) => other !== element && element.contains(other)),
  );
  if (innermost.length !== 1) {
    throw new Error(
      `${innermost.length} elements read as '${text}'; the page reads: ${spokenText(container)}`,
    );
  }
  return innermost[0] as HTMLElement;
}
