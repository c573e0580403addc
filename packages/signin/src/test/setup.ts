import { beforeAll } from 'vitest';
import { loadScreenTexts, loadTexts } from '../messages/index.ts';
import { screenTexts } from '../screens/lazy.ts';

/**
 * The widget's English texts are in before a test renders it, as they are on a page once the
 * login route's catalog has arrived; a test of another language loads its own.
 */
beforeAll(async () => {
  await loadTexts('en');
  // Tests render screens on their own, without the chunk that brings their texts.
  await loadScreenTexts(screenTexts);
});
