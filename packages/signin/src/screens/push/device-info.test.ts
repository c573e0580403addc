import { describe, expect, it } from 'vitest';
import { deviceInfo } from './device-info.ts';

const ua = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
};

describe('deviceInfo (push init content, widget spec §3)', () => {
  it.each([
    [ua.chromeWindows, 'Chrome', 'Windows'],
    [ua.edge, 'Edge', 'Windows'],
    [ua.safariIphone, 'Safari', 'iOS'],
    [ua.firefoxLinux, 'Firefox', 'Linux'],
    [ua.chromeAndroid, 'Chrome', 'Android'],
    [ua.safariMac, 'Safari', 'macOS'],
    ['curl/8.0', 'Unknown', 'Unknown'],
  ])('reads the user-agent string %#', (userAgent, browserName, osName) => {
    expect(deviceInfo({ userAgent })).toEqual({ browserName, osName });
  });

  it('prefers client hints: the browser brand, not the engine or the GREASE entry', () => {
    const userAgentData = {
      brands: [{ brand: 'Not A(Brand' }, { brand: 'Chromium' }, { brand: 'Microsoft Edge' }],
      platform: 'Windows',
    };
    expect(deviceInfo({ userAgent: ua.chromeAndroid, userAgentData })).toEqual({
      browserName: 'Microsoft Edge',
      osName: 'Windows',
    });
    expect(
      deviceInfo({
        userAgent: ua.chromeWindows,
        userAgentData: { brands: [{ brand: 'Chromium' }], platform: '' },
      }),
    ).toEqual({ browserName: 'Chromium', osName: 'Windows' });
  });
});
