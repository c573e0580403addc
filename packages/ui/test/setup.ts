import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import './polyfills.ts';
import { setReducedMotion } from './media.ts';

afterEach(() => {
  cleanup();
  setReducedMotion(false);
});
