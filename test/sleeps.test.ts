import { expect, test } from 'vitest';
import { fixedWaits } from './sleeps.ts';

test('every fixed wait left in the tests gives its reason (test/sleeps.ts lists them)', () => {
  const waits = fixedWaits();
  expect(waits.length).toBeGreaterThan(0);
  expect(waits.filter((w) => !w.reason).map((w) => `${w.file}:${w.line} ${w.code}`)).toEqual([]);
});
