import { otpCheck, type StaffRole, Status, serverMessages } from '@gatehouse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Session, Staff, StaffSession } from '../db/schema.ts';
import type { FactorJourney } from '../factors/engine.ts';
import { ApiError } from '../lib/http.ts';
import { type Guarded, requireSteppedUp } from '../security/service.ts';
import { requireSession } from '../services/session-guard.ts';

/**
 * Who may call a route, declared with it (lib/route.ts `auth`) and checked by a hook of that route
 * before its handler runs; what the check resolved is put on the request for the handler
 * (docs/decisions/038-services-and-guards.md). The refusals are the ones the handlers threw before:
 * 4401 (HTTP 401) without the session, 1412 (HTTP 403) without a recent step-up.
 */

/** What a staff member's role lets them do: decided here once, read where it matters. */
type StaffPermissions = {
  /** Act on the customer account of another staff member (issue codes, lift). */
  actOnStaffAccounts: boolean;
  /** Read every staff member's console actions, not only their own. */
  readEveryonesActions: boolean;
};
const rolePermissions: Record<StaffRole, StaffPermissions> = {
  representative: { actOnStaffAccounts: false, readEveryonesActions: false },
  supervisor: { actOnStaffAccounts: true, readEveryonesActions: true },
};
const noPermissions: StaffPermissions = { actOnStaffAccounts: false, readEveryonesActions: false };

/** A console caller: the staff session, its member and what the member's role permits. */
export type SignedInStaff = { session: StaffSession; staff: Staff; may: StaffPermissions };

/** What each guard resolves. */
export type Guards = {
  /** A signed-in customer session (touched). */
  session: Session;
  /** A signed-in session that stepped up within SECURITY_STEPUP_MINUTES, with its account. */
  steppedUp: Guarded;
  /** A login journey whose second factor is due, or the step-up journey of a signed-in session. */
  factor: FactorJourney;
  /**
   * A code check's: as `factor`, or null when the handler's own statement reads the cookie's login
   * journey (decision 057).
   */
  factorCode: FactorJourney | null;
  /** An active console session. */
  staff: SignedInStaff;
  /** A console session whose authenticator code is due (the password was right). */
  staffFactor: SignedInStaff;
};
export type GuardName = keyof Guards;

declare module 'fastify' {
  interface FastifyRequest {
    /** The customer session the route's guard found ('session', 'steppedUp'). */
    session: Session | null;
    /** The step-up the route's guard found ('steppedUp'). */
    steppedUp: Guarded | null;
    /** The factor journey the route's guard found ('factor'). */
    factorJourney: FactorJourney | null;
    /** The console caller the route's guard found ('staff', 'staffFactor'). */
    staff: SignedInStaff | null;
  }
  interface FastifyContextConfig {
    /** The route's guard (lib/route.ts), for the tests that walk the routes. */
    auth?: GuardName;
  }
}

export const consoleNoSession = () =>
  new ApiError(401, Status.UNAUTHENTICATED, serverMessages.consoleSignInRequired);

async function staffAt(request: FastifyRequest, stage: 'factor' | 'active'): Promise<SignedInStaff> {
  const { staffStore, cookieNames } = request.server;
  const found = await staffStore.session(request.cookies[cookieNames.staff], stage);
  if (!found) throw consoleNoSession();
  const may = rolePermissions[found.staff.role as StaffRole] ?? noPermissions;
  return { ...found, may };
}

async function requireFactorJourney(request: FastifyRequest): Promise<FactorJourney> {
  request.factorJourney = await request.server.engine.require(request);
  if (request.factorJourney.session) request.session = request.factorJourney.session;
  return request.factorJourney;
}

type Guard<T> = {
  /**
   * The console's guards run in onRequest, before the body is read (an anonymous call answers
   * 401, never a body's error: issue 22 point 4); the customer's in preHandler, after the body's
   * media type and size are checked, as when the handlers called them.
   */
  phase: 'onRequest' | 'preHandler';
  check(request: FastifyRequest): Promise<T>;
  read(request: FastifyRequest): T | null;
};

export const guards: { [K in GuardName]: Guard<Guards[K]> } = {
  session: {
    phase: 'preHandler',
    async check(request) {
      request.session = await requireSession(request.server, request);
      return request.session;
    },
    read: (request) => request.session,
  },
  steppedUp: {
    phase: 'preHandler',
    async check(request) {
      request.steppedUp = await requireSteppedUp(request.server, request);
      request.session = request.steppedUp.session;
      return request.steppedUp;
    },
    read: (request) => request.steppedUp,
  },
  factor: { phase: 'preHandler', check: requireFactorJourney, read: (request) => request.factorJourney },
  factorCode: {
    phase: 'preHandler',
    async check(request) {
      // A well-formed cookie and a body the check takes: the check's statement reads the journey
      // (OtpFactor.checkCode). Anything else is read first, as for `factor`, so a caller without a
      // journey gets 4401 before any error of the body's.
      const token = request.cookies[request.server.cookieNames.session];
      if (token && token.length <= 100 && otpCheck.safeParse(request.body).success) {
        request.factorJourney = null;
        return null;
      }
      return requireFactorJourney(request);
    },
    read: (request) => request.factorJourney,
  },
  staff: {
    phase: 'onRequest',
    async check(request) {
      request.staff = await staffAt(request, 'active');
      return request.staff;
    },
    read: (request) => request.staff,
  },
  staffFactor: {
    phase: 'onRequest',
    async check(request) {
      request.staff = await staffAt(request, 'factor');
      return request.staff;
    },
    read: (request) => request.staff,
  },
};

/** The request fields the guards fill (null on a route without a guard). */
export const guardsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('session', null);
    app.decorateRequest('steppedUp', null);
    app.decorateRequest('factorJourney', null);
    app.decorateRequest('staff', null);
  },
  { name: 'gatehouse-guards', dependencies: ['gatehouse-engine', 'gatehouse-stores'] },
);
