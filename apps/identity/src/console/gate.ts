import { BlockList, isIP } from 'node:net';
import { API_BASE } from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleAccess } from '../config.ts';

/**
 * Where the representative console answers (CONSOLE_ORIGIN, CONSOLE_NETWORKS; issue 22 point 3,
 * docs/decisions/031-staff-like-customers.md). Scripts of one origin read each other's answers, so
 * a console that shares the customer origin hands its CSRF token (and every answer) to any script
 * running there. Hence:
 *
 * - the console (its API under /api/console/ and its pages under /console/) answers only on the
 *   console origin's host, and never on a customer origin's host (PUBLIC_ORIGIN, ALLOWED_ORIGINS,
 *   CORS_ORIGINS); with CONSOLE_NETWORKS only to clients in those networks; elsewhere it is not
 *   there (404, no token);
 * - the console origin serves nothing but the console, so no customer page (and no script injected
 *   into one) ever runs on it;
 * - a console call from another origin is refused: an Origin header naming another origin, or a
 *   Sec-Fetch-Site other than same-origin (or none: typed by a person); and no console answer
 *   carries CORS headers, whatever CORS_ORIGINS lists.
 */
export class ConsoleGate {
  private readonly networks: BlockList | undefined;
  constructor(private readonly access: ConsoleAccess) {
    if (access.networks.length) {
      this.networks = new BlockList();
      for (const n of access.networks) this.networks.addSubnet(n.address, n.prefix, n.family);
    }
  }

  /** A request for the console: its API (by the route matched) or its pages. */
  static isConsole(request: FastifyRequest): boolean {
    const route = request.routeOptions.url ?? '';
    return route.startsWith(`${API_BASE}/console/`) || route === '/console' || route.startsWith('/console/');
  }

  private static isConsoleApi(request: FastifyRequest): boolean {
    return request.routeOptions.url?.startsWith(`${API_BASE}/console/`) === true;
  }

  /** The request's host (X-Forwarded-Host only from a trusted proxy), lower case, without a default port. */
  private static hostOf(request: FastifyRequest): string {
    return request.host.toLowerCase().replace(/:(80|443)$/, '');
  }

  /** Whether the request arrived on the console origin's host (always false without CONSOLE_ORIGIN). */
  onConsoleHost(request: FastifyRequest): boolean {
    const { host, anyPort } = this.access;
    if (!host) return false;
    return anyPort ? request.hostname.toLowerCase() === host : ConsoleGate.hostOf(request) === host;
  }

  private inNetworks(request: FastifyRequest): boolean {
    if (!this.networks) return true;
    const ip = request.ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
    const family = isIP(ip);
    return family !== 0 && this.networks.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  }

  /** The console call came from a page of the console origin (or from no browser page at all). */
  private sameOrigin(request: FastifyRequest): boolean {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
    const origin = request.headers.origin;
    if (origin === undefined) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (this.access.origin && !this.access.anyPort) return url.origin === this.access.origin;
    const host = url.host.toLowerCase().replace(/:(80|443)$/, '');
    return this.access.anyPort ? url.hostname === this.access.host : host === ConsoleGate.hostOf(request);
  }

  /**
   * Why the request is refused here, or null: a console request off the console's host or networks,
   * or from another origin; any other request on the console's host.
   */
  refusal(request: FastifyRequest): string | null {
    if (!ConsoleGate.isConsole(request)) {
      return this.onConsoleHost(request) ? 'not the console on the console origin' : null;
    }
    if (this.access.host) {
      if (!this.onConsoleHost(request)) return 'the console off its origin';
    } else if (this.access.customerHosts.includes(ConsoleGate.hostOf(request))) {
      return 'the console on a customer origin';
    }
    if (!this.inNetworks(request)) return 'the console outside CONSOLE_NETWORKS';
    if (ConsoleGate.isConsoleApi(request) && !this.sameOrigin(request))
      return 'a console call from another origin';
    return null;
  }

  /** No console answer is readable by another origin: CORS headers are taken off. */
  static withoutCors(request: FastifyRequest, reply: FastifyReply): void {
    const path = request.url.toLowerCase();
    if (
      !ConsoleGate.isConsole(request) &&
      !path.startsWith(`${API_BASE}/console`) &&
      !path.startsWith('/console')
    ) {
      return;
    }
    reply.removeHeader('access-control-allow-origin');
    reply.removeHeader('access-control-allow-credentials');
    reply.removeHeader('access-control-expose-headers');
  }
}
