import Bowser from 'bowser';

/**
 * The browser and operating system a User-Agent names, for the security page's lists of sessions,
 * trusted browsers and activity (bowser: docs/decisions/025-security-page-api.md). Names only, no
 * versions: enough for a customer to tell their devices apart. An empty or unknown agent is
 * 'Unknown browser' / 'Unknown system'.
 */
export type BrowserAndOs = { browser: string; os: string };

export const unknownBrowser = 'Unknown browser';
export const unknownOs = 'Unknown system';

export function describeUserAgent(userAgent: string | null | undefined): BrowserAndOs {
  if (!userAgent) return { browser: unknownBrowser, os: unknownOs };
  try {
    const parser = Bowser.getParser(userAgent.slice(0, 300));
    return {
      browser: parser.getBrowserName() || unknownBrowser,
      os: parser.getOSName() || unknownOs,
    };
  } catch {
    return { browser: unknownBrowser, os: unknownOs };
  }
}
