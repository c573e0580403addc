import { appDefaults, clientLimits as limits } from './client-limits.ts';

/** A request id the service accepts from a client (newRequestId's form); the service's alone. */
export const requestIdPattern = new RegExp(
  `^${appDefaults.requestIdPrefix}[A-Za-z0-9]{${limits.requestIdRandomLength}}$`,
);
