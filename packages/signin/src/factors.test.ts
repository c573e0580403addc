import { authenticatorType } from '@gatehouse/contract';
import { outcomeTables } from '@gatehouse/contract/client';
import { describe, expect, it } from 'vitest';
import * as en from '../messages/en.json';
import { calls } from './api/calls.ts';
import { factorEntries } from './factors.ts';
import { routes } from './routes.ts';
import loginSwitch from './SignIn.tsx?raw';
import { factorScreen, screenTexts } from './screens/lazy.ts';
import { factorModules } from './screens/Routes.tsx';
import offLoginSwitch from './screens/Routes.tsx?raw';

// The widget's switch: the login route's (SignIn.tsx) and the one off it, loaded on demand (screens/Routes.tsx).
const signIn = loginSwitch + offLoginSwitch;

const folders = Object.keys(import.meta.glob('./screens/*/entry.ts')).map((path) => path.split('/')[2]);
const factorRouteNames = new Set(factorEntries.flatMap((entry) => Object.keys(entry.routes)));

describe('the factor entries (screens/<key>/entry.ts, issue 24 point 2)', () => {
  it('one entry a factor folder, keyed by its folder (the server module key)', () => {
    expect(factorEntries.map((entry) => entry.key).sort()).toEqual([...folders].sort());
  });

  it('every authenticator type of the contract has exactly one entry, and each opens a screen of its own entry', () => {
    const owners = factorEntries.flatMap((entry) => entry.types.map((type) => [type, entry.key]));
    expect(owners.map(([type]) => type).sort()).toEqual([...authenticatorType.options].sort());
    for (const entry of factorEntries) {
      expect(Object.keys(entry.opens).sort()).toEqual([...entry.types].sort());
      const ownPaths = Object.values(entry.routes);
      for (const path of Object.values(entry.opens)) expect(ownPaths).toContain(path);
    }
  });

  it('route names and paths are unique across the entries and the widget’s own routes', () => {
    const names = factorEntries.flatMap((entry) => Object.keys(entry.routes));
    const paths = factorEntries.flatMap((entry) => Object.values(entry.routes));
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(Object.values(routes)).size).toBe(Object.keys(routes).length);
  });

  it('every route in routes.ts has a screen: a factor’s by its entry, the widget’s own in the switch', () => {
    for (const entry of factorEntries) {
      const screenNames = factorModules[`./${entry.key}/screens.ts`]?.screenNames ?? {};
      expect(Object.keys(screenNames).sort()).toEqual(Object.keys(entry.routes).sort());
      for (const name of Object.values(screenNames)) {
        expect(typeof factorScreen(entry.key, name)).toBe('function');
      }
    }
    for (const name of Object.keys(routes).filter((n) => !factorRouteNames.has(n))) {
      expect(signIn, name).toContain(`<Route path={routes.${name}}>`);
    }
    expect(() => factorScreen('otp', 'texts')).toThrow();
    expect(() => factorScreen('otp', 'toString')).toThrow();
  });

  it('call names are unique; each has the contract’s outcome table, and its factor value is a type of its entry', () => {
    const callsOf = (key: string) => factorModules[`./${key}/screens.ts`]?.calls ?? {};
    const names = factorEntries.flatMap((entry) => Object.keys(callsOf(entry.key)));
    expect(new Set(names).size).toBe(names.length);
    for (const entry of factorEntries) {
      for (const [name, call] of Object.entries(callsOf(entry.key))) {
        expect(Object.keys(outcomeTables), name).toContain(name);
        const table = outcomeTables[name as keyof typeof outcomeTables];
        expect([table.method, table.path]).toEqual([call.method, call.path]);
        if (call.factor) expect(entry.types as readonly string[]).toContain(call.factor);
      }
    }
    expect(Object.keys(calls)).toEqual(expect.arrayContaining(names));
  });

  it('its text groups are catalog groups, and the screens’ texts bring every one of them', async () => {
    const load = Object.entries(screenTexts).find(([path]) => path.endsWith('/en.json'))?.[1];
    const texts = (await load?.()) as Record<string, unknown>;
    const catalog = en as unknown as Record<string, Record<string, string>>;
    for (const group of factorEntries.flatMap((entry) => entry.textGroups)) {
      expect(Object.keys(catalog)).toContain(group);
      for (const key of Object.keys(catalog[group] ?? {})) expect(texts, key).toHaveProperty([key]);
    }
  });
});
