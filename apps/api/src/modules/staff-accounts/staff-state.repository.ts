import { eq } from 'drizzle-orm';
import type { StaffRole } from '@kringle/contracts/staff-roles';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema/accounts';

/** What every staff request is checked against (plugins/staff-access.ts). */
export interface StaffState {
  userId: string;
  email: string;
  role: StaffRole;
  locationIds: string[];
  active: boolean;
  mfaEnrolled: boolean;
}

/** The staff account, or null when the user is gone or no longer staff. One primary-key read. */
export async function findStaffState(db: DbOrTx, userId: string): Promise<StaffState | null> {
  const [row] = await db
    .select({
      email: users.email,
      isStaff: users.isStaff,
      role: users.staffRole,
      locationIds: users.locationIds,
      active: users.active,
      mfaEnrolledAt: users.mfaEnrolledAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row || !row.isStaff || !row.role) return null;
  return {
    userId,
    email: row.email,
    role: row.role,
    locationIds: row.locationIds,
    active: row.active,
    mfaEnrolled: row.mfaEnrolledAt !== null,
  };
}
