import type { FastifyRequest } from 'fastify';
import type { StaffRole as Role } from '@kringle/contracts/staff-roles';

// Placeholder, replaced by people-roles (issue 34): the shared interface of the two branches,
// so the support desk's routes can declare their roles and check locations before roles land.
export type StaffRole = Role;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The roles allowed on a staff route (manager is always allowed); enforced by people-roles. */
    staffRoles?: readonly StaffRole[];
  }
}

/** 403 LOCATION_FORBIDDEN when the staff member may not touch this location (placeholder: does nothing yet). */
export function assertStaffLocation(_request: FastifyRequest, _locationId: string): void {
  // placeholder, replaced by people-roles
}
