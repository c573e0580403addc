import { beforeAll } from 'vitest';
import { pageTexts } from '../src/pages/lazy.ts';
import { securityTexts } from '../src/pages/security/SecurityPage.tsx';
import { texts } from '../src/texts.ts';

/**
 * The portal's English texts are in before a test renders a page, as they are in the browser once
 * main.tsx and the pages' chunks have loaded them; a test of another language loads its own.
 */
beforeAll(async () => {
  await texts.use('en');
  await Promise.all([texts.load('pages', pageTexts), texts.load('security', securityTexts)]);
});
