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
};

const hosts: Record<Exclude<EnvironmentName, 'local'>, { serviceHost: string; portalHost: string }> = {
  dev: {
    serviceHost: 'https://identity.dev.primeservices.example',
    portalHost: 'https://portal.dev.primeservices.example',
  },
  uat: {
    serviceHost: 'https://identity.uat.primeservices.example',
    portalHost: 'https://portal.uat.primeservices.example',
  },
  qa: {
    serviceHost: 'https://identity.qa.primeservices.example',
    portalHost: 'https://portal.qa.primeservices.example',
  },
  prod: {
    serviceHost: 'https://identity.primeservices.example',
    portalHost: 'https://portal.primeservices.example',
  },
};

export function environmentFor(name: unknown): Environment {
  if (typeof name === 'string' && name in hosts) {
    const key = name as Exclude<EnvironmentName, 'local'>;
    return { name: key, ...hosts[key], portalAddress: `${hosts[key].portalHost}/` };
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

/** Reads env.json; a missing or unreadable asset means the local environment. */
export async function loadEnvironment(): Promise<Environment> {
  try {
    const response = await fetch('./env.json', { cache: 'no-store' });
    current = environmentFor(response.ok ? ((await response.json()) as { name?: unknown }).name : 'local');
  } catch {
    current = environmentFor('local');
  }
  return current;
}
