import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { setReducedMotion } from './media.ts';

afterEach(() => {
  cleanup();
  setReducedMotion(false);
});
