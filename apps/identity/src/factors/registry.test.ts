import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { generatedDocs } from '../docs-config-cli.ts';
import { FactorRegistry, findFactors } from './registry.ts';

describe('the factor registry (decision 036)', () => {
  test('finds exactly the six modules, in the order of the authenticator list', async () => {
    const registry = await findFactors();
    expect(registry.modules.map((m) => m.names.key)).toEqual([
      'passkey',
      'push',
      'totp',
      'token',
      'otp',
      'rep',
    ]);
    const types = registry.modules.flatMap((m) => m.names.types);
    expect([...types].sort((a, b) => registry.order(a) - registry.order(b))).toEqual([
      'PASSKEY',
      'PUSH',
      'TOTPAUTHN',
      'TOTPSVIP',
      'OTP-SMS',
      'OTP-VOICE',
      'OTP-EMAIL',
      'OTP-REP',
    ]);
    expect(registry.ofType('TOTPSVIP')?.names.key).toBe('token');
    expect(registry.ofCredentialKind('email')?.names.key).toBe('otp');
    expect(registry.ofKey('push')?.names.types).toEqual(['PUSH']);
    expect(registry.ofCredentialKind('password')).toBeUndefined();
    expect(registry.credentialKinds.sort()).toEqual(['email', 'passkey', 'phone', 'push', 'token', 'totp']);
  });

  test("every name of a module is its own: no type, credential kind, route, counter or operation is another's", async () => {
    const { modules } = await findFactors();
    for (const name of ['types', 'credentialKinds', 'widgetRoutes', 'operations'] as const) {
      const all = modules.flatMap((m) => m.names[name]);
      expect(new Set(all).size, name).toBe(all.length);
    }
    const counters = modules.flatMap((m) => (m.names.counterKey ? [m.names.counterKey] : []));
    expect(new Set(counters).size).toBe(counters.length);
    // And the registry refuses a module that takes another's name.
    const push = modules.find((m) => m.names.key === 'push');
    const names = {
      key: 'thief',
      types: push!.names.types,
      credentialKinds: [],
      widgetRoutes: [],
      textGroup: 'x',
      operations: [],
    };
    const thief = { ...push!, rank: 99, names };
    expect(() => new FactorRegistry([...modules, thief])).toThrow(
      'Factors push and thief both name the type PUSH',
    );
  });

  const root = mkdtempSync(join(tmpdir(), 'gatehouse-factors-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test('a folder without module.ts (shared code, migrations) is skipped; one with it is found', async () => {
    mkdirSync(join(root, 'shared'));
    writeFileSync(join(root, 'shared', 'helpers.ts'), 'export const x = 1;\n');
    mkdirSync(join(root, 'migrations'));
    mkdirSync(join(root, 'demo'));
    writeFileSync(
      join(root, 'demo', 'module.ts'),
      `export const factor = { names: { key: 'demo', types: ['DEMO'], credentialKinds: ['demo'], widgetRoutes: [], textGroup: 'demo', operations: [] }, rank: 1 };\n`,
    );
    const registry = await findFactors(root);
    expect(registry.modules.map((m) => m.names.key)).toEqual(['demo']);
    writeFileSync(join(root, 'demo', 'module.ts'), `export const factor = { names: { key: 'other' } };\n`);
    mkdirSync(join(root, 'second'));
    writeFileSync(
      join(root, 'second', 'module.ts'),
      `export const factor = { names: { key: 'elsewhere' } };\n`,
    );
    await expect(findFactors(root)).rejects.toThrow(/names its key/);
  });

  test('docs/factors.md and the factor tables of docs/configuration.md are generated from the registry (npm run docs:config)', async () => {
    const docs = await generatedDocs();
    expect(Object.keys(docs)).toHaveLength(2);
    for (const [path, text] of Object.entries(docs)) expect(readFileSync(path, 'utf8'), path).toBe(text);
  });
});
