import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { MFA_REQUIRED_ROLES, STAFF_ROLES, type StaffRole } from '@kringle/contracts/staff-roles';
import { errors } from '../lib/errors';
import { SECOND_FACTOR_AMR } from '../modules/accounts/refresh-tokens.repository';
import { findStaffState, type StaffState } from '../modules/staff-accounts/staff-state.repository';

export type { StaffRole } from '@kringle/contracts/staff-roles';

/**
 * Staff roles and locations (issue 34, decision 0050), declared on each `auth: 'staff'` route:
 *
 *   config: { auth: 'staff', staffRoles: ['set', 'support'] }
 *
 * `manager` may call every staff route; a staff route that names no roles is manager-only, so a
 * forgotten declaration fails closed. Before the role, the account itself is checked against the
 * database, at most 5 s old (a role or location change reaches every process within it; a
 * deactivation is refused at once anyway, by the session epoch, decision 0063): inactive → 401,
 * a manager or support without an enrolled second factor → 403 MFA_REQUIRED (except on the routes
 * that enrol it, `staffBeforeMfa: true`), another role → 403 ROLE_FORBIDDEN. Services call
 * `assertStaffLocation` for the location a request touches → 403 LOCATION_FORBIDDEN.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    staffRoles?: readonly StaffRole[];
    /** The routes a manager or support member needs to enrol the second factor. */
    staffBeforeMfa?: boolean;
  }
  interface FastifyRequest {
    /** The staff caller's account as the database has it, on `auth: 'staff'` routes; else null. */
    staffAccess: StaffState | null;
  }
  interface FastifyInstance {
    staffStates: StaffStateCache;
  }
}

/**
 * How long a process trusts what it read of a staff account. Short: a deactivation, a role or a
 * location change reach every process within it (the process that made the change forgets at once).
 */
export const STAFF_STATE_CACHE_MS = 5_000;

/** The few-seconds memory of staff accounts (one indexed read per account per 5 s per process). */
export class StaffStateCache {
  private readonly entries = new Map<string, { state: StaffState | null; at: number }>();
  constructor(
    private readonly load: (userId: string) => Promise<StaffState | null>,
    private readonly ttlMs: number,
  ) {}

  async get(userId: string, nowMs: number): Promise<StaffState | null> {
    const hit = this.entries.get(userId);
    if (hit && nowMs - hit.at < this.ttlMs && nowMs >= hit.at) return hit.state;
    const state = await this.load(userId);
    if (this.entries.size > 10_000) this.entries.clear();
    this.entries.set(userId, { state, at: nowMs });
    return state;
  }

  forget(userId: string): void {
    this.entries.delete(userId);
  }
}

/** The roles that may call a staff route: its declaration, always with manager. */
export function rolesOf(declared: readonly StaffRole[] | undefined): StaffRole[] {
  return STAFF_ROLES.filter((role) => role === 'manager' || (declared ?? []).includes(role));
}

/** Validates a staff route's declaration when it is registered and writes it into OpenAPI. */
function settleStaffRoles(route: RouteOptions): void {
  const declared = route.config?.staffRoles;
  if (route.config?.auth !== 'staff') {
    if (declared) throw new Error(`Route ${route.url}: staffRoles needs auth: 'staff'`);
    return;
  }
  for (const role of declared ?? []) {
    if (!STAFF_ROLES.includes(role)) throw new Error(`Route ${route.url}: unknown staff role '${String(role)}'`);
  }
  if (!route.schema) return;
  const roles = rolesOf(declared);
  const schema = route.schema as Record<string, unknown>;
  schema['x-staff-roles'] = roles;
  const note = `Staff roles: ${roles.join(', ')}.`;
  schema.description = typeof schema.description === 'string' ? `${schema.description}\n\n${note}` : note;
}

/**
 * Refuses a location outside the caller's list (empty = every location) with 403
 * LOCATION_FORBIDDEN. Fails closed: outside a staff route there is no staff caller to admit.
 */
export function assertStaffLocation(request: FastifyRequest, locationId: string): void {
  const staff = request.staffAccess;
  if (!staff) throw errors.roleForbidden();
  if (staff.locationIds.length > 0 && !staff.locationIds.includes(locationId)) throw errors.locationForbidden();
}

/** Whether this account may touch the location (for lists that filter rather than refuse). */
export function staffCovers(staff: Pick<StaffState, 'locationIds'>, locationId: string): boolean {
  return staff.locationIds.length === 0 || staff.locationIds.includes(locationId);
}

export const staffAccessPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('staffStates', new StaffStateCache((userId) => findStaffState(app.db, userId), STAFF_STATE_CACHE_MS));
    app.decorateRequest('staffAccess', null);
    /** The account as the database has it: active, its second factor, its role (after authenticateCaller). */
    async function checkStaffAccess(request: FastifyRequest) {
      const config = request.routeOptions.config;
      if (!request.auth) return;
      const state = await app.staffStates.get(request.auth.userId, app.clock.now().getTime());
      if (!state || !state.active) throw errors.sessionEnded();
      // A session signed into with the password alone, once the account has a factor (issue 48): ended.
      if (state.mfaEnrolled && request.auth.amr && !request.auth.amr.includes(SECOND_FACTOR_AMR))
        throw errors.sessionEnded();
      if (MFA_REQUIRED_ROLES.includes(state.role) && !state.mfaEnrolled && !config.staffBeforeMfa)
        throw errors.mfaRequired();
      if (!rolesOf(config.staffRoles).includes(state.role)) throw errors.roleForbidden();
      request.staffAccess = state;
    }
    // On staff routes only: a family's hot reads (available slots) carry no hook, and no promise, for it.
    app.addHook('onRoute', (route) => {
      settleStaffRoles(route);
      if (route.config?.auth === 'staff')
        route.onRequest = [...(route.onRequest ? [route.onRequest].flat() : []), checkStaffAccess];
    });
    // The answer lane has no database read to make: staff routes always go through Fastify.
    app.answerLane.addGate('staff-access', function staffAccessGate(_raw, route) {
      return route.config.auth !== 'staff';
    });
  },
  { name: 'staff-access', dependencies: ['auth'] },
);
