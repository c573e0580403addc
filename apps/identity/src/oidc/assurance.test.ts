import { describe, expect, it } from 'vitest';
import type { SessionFactor } from '../services/sessions.ts';
import { acrLevels, assuranceOf, meets, requestedAcr } from './assurance.ts';

const at = (iso: string) => new Date(iso);
const factor = (kind: string, level: number, when: string, phishingResistant = false): SessionFactor => ({
  kind,
  level,
  journeyKind: 'login',
  verifiedAt: at(when),
  phishingResistant,
});

describe('acr, amr and auth_time from session_factors (RFC 8176)', () => {
  it('a password alone: the password level, pwd, the password time', () => {
    expect(assuranceOf([factor('password', 1, '2026-11-28T07:00:00Z')])).toEqual({
      acr: acrLevels.password,
      amr: ['pwd'],
      authTime: Date.parse('2026-11-28T07:00:00Z') / 1000,
    });
  });

  it('a text code after the password: mfa, sms and otp, the time of the latest factor', () => {
    const a = assuranceOf([
      factor('password', 1, '2026-11-28T07:00:00Z'),
      factor('OTP-SMS', 2, '2026-11-28T07:05:00Z'),
    ]);
    expect(a.acr).toBe(acrLevels.mfa);
    expect(a.amr.sort()).toEqual(['mfa', 'otp', 'pwd', 'sms']);
    expect(a.authTime).toBe(Date.parse('2026-11-28T07:05:00Z') / 1000);
  });

  it('voice is tel, push is swk, a passkey is hwk and phishing-resistant', () => {
    expect(
      assuranceOf([
        factor('password', 1, '2026-11-28T07:00:00Z'),
        factor('OTP-VOICE', 2, '2026-11-28T07:01:00Z'),
      ]).amr,
    ).toContain('tel');
    expect(
      assuranceOf([factor('password', 1, '2026-11-28T07:00:00Z'), factor('PUSH', 2, '2026-11-28T07:01:00Z')])
        .amr,
    ).toContain('swk');
    const passkey = assuranceOf([factor('PASSKEY', 2, '2026-11-28T07:01:00Z', true)]);
    expect(passkey.acr).toBe(acrLevels.phishingResistant);
    expect(passkey.amr).toEqual(['hwk']);
  });

  it('a trusted device stands in for the second factor (mfa level) but is no method: no mfa in amr', () => {
    const a = assuranceOf([
      factor('password', 1, '2026-11-28T07:00:00Z'),
      factor('TRUSTED-DEVICE', 2, '2026-11-28T07:00:00Z'),
    ]);
    expect(a.acr).toBe(acrLevels.mfa);
    expect(a.amr).toEqual(['pwd']);
  });

  it('acr_values: the lowest known level asked; a level meets itself and those below', () => {
    expect(requestedAcr(undefined)).toBeNull();
    expect(requestedAcr(`${acrLevels.phishingResistant} ${acrLevels.mfa}`)).toBe(acrLevels.mfa);
    expect(requestedAcr('urn:other:loa:9')).toBe('urn:other:loa:9');
    expect(meets(acrLevels.mfa, acrLevels.password)).toBe(true);
    expect(meets(acrLevels.password, acrLevels.mfa)).toBe(false);
    expect(meets(acrLevels.phishingResistant, 'urn:other:loa:9')).toBe(false);
    expect(meets(acrLevels.password, null)).toBe(true);
  });
});
