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
