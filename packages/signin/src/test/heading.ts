import { screen } from '@testing-library/react';
import { expect } from 'vitest';

/**
 * Waits for the screen whose heading has that accessible name (up to 3 s), and asserts it is a real
 * heading element: the screen a person sees has arrived.
 */
export async function heading(name: string): Promise<HTMLElement> {
  const found = await screen.findByRole('heading', { name }, { timeout: 3000 });
  expect(found.tagName, `the heading '${name}'`).toMatch(/^H[1-6]$/);
  return found;
}
