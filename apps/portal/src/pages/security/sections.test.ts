import { describe, expect, it } from 'vitest';
import { factorSections } from './sections.ts';

describe('the factor sections of the security page (sections/<key>/section.tsx)', () => {
  it('finds every folder, each with a component and an order of its own, lowest first', () => {
    expect(factorSections.map((s) => s.key)).toEqual(expect.arrayContaining(['totp', 'devices', 'otp']));
    for (const { Section, order } of factorSections) {
      expect(typeof Section).toBe('function');
      expect(Number.isFinite(order)).toBe(true);
    }
    const orders = factorSections.map((s) => s.order);
    expect(new Set(orders).size).toBe(orders.length);
    expect([...orders].sort((a, b) => a - b)).toEqual(orders);
  });
});
