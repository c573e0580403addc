import { ta } from './texts.ts';

type UAData = { brands?: Array<{ brand: string }>; platform?: string };

/** A default name for this device, 'Chromium on Linux' style, from the browser's own description. */
export function defaultDeviceName(nav: Navigator = navigator): string {
  const ua = nav.userAgent ?? '';
  const data = (nav as Navigator & { userAgentData?: UAData }).userAgentData;
  const brands = (data?.brands ?? []).map((b) => b.brand).filter((b) => !/not.?a.?brand/i.test(b));
  const browser =
    brands.find((b) => b !== 'Chromium') ??
    brands[0] ??
    (/Edg\//.test(ua)
      ? 'Edge'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : ta('unknownBrowser'));
  const system =
    data?.platform ||
    (/Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad/.test(ua)
        ? 'iOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Mac OS X/.test(ua)
            ? 'macOS'
            : /CrOS/.test(ua)
              ? 'ChromeOS'
              : /Linux/.test(ua)
                ? 'Linux'
                : ta('unknownSystem'));
  return ta('defaultDeviceName', browser, system).slice(0, 60);
}
