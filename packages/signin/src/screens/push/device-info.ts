/**
 * What the device shows about the browser that asked (widget spec §3 "Push init":
 * secureTransactionContent holds deviceInfo with browserName and osName, time, host, journey).
 * User-Agent Client Hints where the browser has them, else a few patterns of the user-agent
 * string: a name for a person to recognise, not a fingerprint, and small enough for the bundle.
 */
type Hints = { brands?: Array<{ brand: string }>; platform?: string };
type Navigatorish = { userAgent: string; userAgentData?: Hints };

const browsers: Array<[RegExp, string]> = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS/, 'Firefox'],
  [/Chrome\/|CriOS/, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const systems: Array<[RegExp, string]> = [
  [/Windows/, 'Windows'],
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];
const unknown = 'Unknown';

const match = (ua: string, table: Array<[RegExp, string]>) =>
  table.find(([pattern]) => pattern.test(ua))?.[1] ?? unknown;

export function deviceInfo(nav: Navigatorish = navigator): { browserName: string; osName: string } {
  const hints = nav.userAgentData;
  // Brands list the engine (Chromium) and a GREASE entry ('Not A(Brand') besides the browser.
  const brands = (hints?.brands ?? []).map((b) => b.brand).filter((b) => !/not.a.brand/i.test(b));
  return {
    browserName: brands.find((b) => b !== 'Chromium') ?? brands[0] ?? match(nav.userAgent, browsers),
    osName: hints?.platform || match(nav.userAgent, systems),
  };
}

/** The push init payload's content: a JSON string (widget spec §3). */
export function secureTransactionContent(journey: string, now = new Date()): string {
  return JSON.stringify({
    deviceInfo: deviceInfo(),
    time: now.toISOString(),
    host: location.host,
    journey,
  });
}
