import { z } from 'zod';

/**
 * Staff roles (issue 34, API.md "Staff roles, multi-factor sign-in, audit"):
 * - `manager`: everything, staff accounts included;
 * - `support`: finds families and acts for them;
 * - `set`: the day at a location (run sheet, check-in, no-show, walk-ins, photos).
 */
export const STAFF_ROLES = ['manager', 'support', 'set'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const staffRoleSchema = z.enum(STAFF_ROLES).meta({ id: 'StaffRole' });

/** Roles that must enrol a second factor before any other staff call (403 MFA_REQUIRED). */
export const MFA_REQUIRED_ROLES: readonly StaffRole[] = ['manager', 'support'];
