import {
  PASSKEY_TYPE,
  passkeyOutcomeTables,
  passkeyPaths,
  passkeySecurityOutcomeTables,
} from '@gatehouse/contract/factors/passkey';
import { describe, expect, it } from 'vitest';
import { passkeyCalls, passkeyType } from './calls.ts';
import { passkeySecurityCalls } from './public.ts';

describe("the passkey entry's calls", () => {
  it("are the contract's: each call's method and path, and the factor's type", () => {
    expect(passkeyType).toBe(PASSKEY_TYPE);
    for (const [name, call] of Object.entries(passkeyCalls)) {
      const table = passkeyOutcomeTables[name as keyof typeof passkeyOutcomeTables];
      expect({ method: call.method, path: call.path }, name).toEqual({
        method: table.method,
        path: table.path,
      });
      expect(call.path).toBe(passkeyPaths[name as keyof typeof passkeyPaths]);
    }
    for (const [name, call] of Object.entries(passkeySecurityCalls)) {
      const table = passkeySecurityOutcomeTables[name as keyof typeof passkeySecurityOutcomeTables];
      expect(call, name).toEqual({ method: table.method, path: table.path });
    }
  });
});
