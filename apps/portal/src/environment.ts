import { settings } from './settings.ts';

/**
 * Portal spec §7: the environment name is read at start from an environment asset (env.json,
 * deployed beside index.html) and selects the service and portal hosts. 'local' is the default:
 * the identity service is this page's own origin.
 */
export const environmentNames = ['local', 'dev', 'uat', 'qa', 'prod'] as const;
export type EnvironmentName = (typeof environmentNames)[number];
export type Environment = {
  name: EnvironmentName;
  serviceHost: string;
  portalHost: string;
  /** Where a finished sign-in sends the browser (portal spec §2): the portal itself. */
  portalAddress: string;
  /**
   * The device-risk step the widget runs in the login journey (docs/decisions/045-device-risk-step.md),
   * when env.json names it: the identity service adds its RISK_SCRIPT_URL and RISK_BEACON_URL there.
   */
  deviceRisk?: { scriptUrl: string; beaconUrl: string } | undefined;
};

/**
 * The hosts of a named environment: `https://identity.<name>.primeservices.example` and
 * `https://portal.<name>.primeservices.example`, without the name in prod.
 */
const host = (app: 'identity' | 'portal', name: string) =>
  `https://${app}${name === 'prod' ? '' : `.${name}`}.primeservices.example`;

export function environmentFor(name: unknown): Environment {
  if (environmentNames.includes(name as EnvironmentName) && name !== 'local') {
    const key = name as Exclude<EnvironmentName, 'local'>;
    const portalHost = host('portal', key);
    return { name: key, serviceHost: host('identity', key), portalHost, portalAddress: `${portalHost}/` };
  }
  // Locally the portal is this app's own signed-in page.
  const here = typeof window === 'undefined' ? null : window.location;
  return {
    name: 'local',
    serviceHost: '',
    portalHost: here ? here.origin : '',
    portalAddress: here ? `${here.origin}${here.pathname}#${settings.homeRoute}` : `#${settings.homeRoute}`,
  };
}

let current: Environment = environmentFor('local');

export const currentEnvironment = (): Environment => current;

/** Both addresses http(s) URLs, or no step: a malformed entry never reaches the page. */
export function deviceRiskFrom(value: unknown): Environment['deviceRisk'] {
  const { scriptUrl, beaconUrl } = (value ?? {}) as { scriptUrl: string; beaconUrl: string };
  return [scriptUrl, beaconUrl].every((v) => /^https?:\/\/\S+$/.test(String(v)))
    ? { scriptUrl, beaconUrl }
    : undefined;
}

/** Reads env.json; a missing or unreadable asset means the local environment. */
export async function loadEnvironment(): Promise<Environment> {
  try {
    const response = await fetch('./env.json', { cache: 'no-store' });
    const asset = response.ok ? ((await response.json()) as { name?: unknown; deviceRisk?: unknown }) : {};
    current = { ...environmentFor(asset.name), deviceRisk: deviceRiskFrom(asset.deviceRisk) };
  } catch {
    current = environmentFor('local');
  }
  return current;
}
