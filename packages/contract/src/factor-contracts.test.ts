import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  composeFactors,
  factorOutcomeDocs,
  factorOutcomeTables,
  factorSecurityOutcomeTables,
  factorServerMessages,
  factorTypes,
  listedFactorContracts,
} from './factor-contracts.ts';
import {
  authenticatorType,
  outcomeDocs,
  outcomeTables,
  securityOutcomeTables,
  serverMessages,
} from './index.ts';
import { fail, incorrectCodeServer, ok, securityGuard, success } from './outcome-builders.ts';
import type { Codes, OutcomeTable } from './outcomes.ts';
import { Status } from './status.ts';

// A factor contract as a file of factors/ would export it (test-only: not listed in factors/index.ts).
const probe = {
  types: ['PROBE'] as const,
  paths: { probeAuthentication: '/user/factor/probe' },
  outcomeTables: {
    probeAuthentication: {
      method: 'POST',
      path: '/user/factor/probe',
      codes: {
        1200: ok('factorVerified', success),
        1428: fail('securityCodeNotRecognized', incorrectCodeServer),
      },
    },
  } as const satisfies Record<string, OutcomeTable>,
  securityOutcomeTables: {
    securityProbeAdd: {
      method: 'POST',
      path: '/user/security/probes',
      codes: { 1200: ok('success', success), ...securityGuard },
    },
  } as const satisfies Record<string, OutcomeTable>,
  outcomeDocs: {
    probeAuthentication: { [Status.SUCCESS]: 'The probe checks out' },
    securityProbeAdd: { [Status.SUCCESS]: 'The probe is a credential of the account' },
  },
  serverMessages: { probeRefused: 'The probe was refused.' },
};

describe('factor contracts', () => {
  it("joins a factor's parts under their names, typed by their keys", () => {
    const composed = composeFactors({ probe });
    expect(composed.types).toEqual(['PROBE']);
    expect(composed.outcomeTables.probeAuthentication.codes[1428]).toEqual({
      http: 200,
      message: 'securityCodeNotRecognized',
      failure: true,
      action: { kind: 'ERROR', error: 'incorrectCode', server: true },
    });
    expect((composed.securityOutcomeTables.securityProbeAdd.codes as Codes)[1412]?.http).toBe(403);
    expect(composed.outcomeDocs.securityProbeAdd[Status.SUCCESS]).toBe(
      'The probe is a credential of the account',
    );
    expect(composed.serverMessages.probeRefused).toBe('The probe was refused.');
    expectTypeOf(composed.types).toEqualTypeOf<readonly 'PROBE'[]>();
    expectTypeOf<keyof typeof composed.outcomeTables>().toEqualTypeOf<'probeAuthentication'>();
    expectTypeOf<keyof typeof composed.securityOutcomeTables>().toEqualTypeOf<'securityProbeAdd'>();
    expectTypeOf<keyof typeof composed.serverMessages>().toEqualTypeOf<'probeRefused'>();
  });

  it('joins no parts of a factor that exports none, and none of no factors', () => {
    const composed = composeFactors({ probe, bare: { types: ['BARE'] as const } });
    expect(composed.types).toEqual(['PROBE', 'BARE']);
    expect(Object.keys(composed.outcomeTables)).toEqual(['probeAuthentication']);
    expect(composeFactors({})).toEqual({
      types: [],
      outcomeTables: {},
      securityOutcomeTables: {},
      outcomeDocs: {},
      serverMessages: {},
    });
  });

  it('refuses two factors that give the same type, call or text', () => {
    expect(() => composeFactors({ probe, twin: { types: ['PROBE'] } })).toThrow(
      "Two factor contracts give type 'PROBE'",
    );
    expect(() => composeFactors({ probe, twin: { outcomeTables: probe.outcomeTables } })).toThrow(
      "Two factor contracts give outcomeTables 'probeAuthentication'",
    );
    expect(() => composeFactors({ probe, twin: { serverMessages: { probeRefused: 'x' } } })).toThrow(
      "Two factor contracts give serverMessages 'probeRefused'",
    );
  });

  it("puts the listed factors' parts in the contract's types, tables, docs and texts", () => {
    for (const type of factorTypes) expect(authenticatorType.options).toContain(type);
    const all: Record<string, unknown> = { ...outcomeTables };
    for (const [call, table] of Object.entries(factorOutcomeTables)) expect(all[call]).toBe(table);
    const security: Record<string, unknown> = { ...securityOutcomeTables };
    for (const [call, table] of Object.entries(factorSecurityOutcomeTables))
      expect(security[call]).toBe(table);
    const docs: Record<string, unknown> = { ...outcomeDocs };
    for (const [call, doc] of Object.entries(factorOutcomeDocs)) expect(docs[call]).toBe(doc);
    const texts: Record<string, unknown> = { ...serverMessages };
    for (const [key, value] of Object.entries(factorServerMessages)) expect(texts[key]).toBe(value);
    // The core's own values are still there.
    expect(authenticatorType.options).toContain('TOTPAUTHN');
  });

  it('finds no clash among the listed factors (the join the clients run does not check)', () => {
    expect(() => composeFactors(listedFactorContracts)).not.toThrow();
  });
});
