import type { StaffRole } from '@kringle/contracts/staff-roles';
import type { Db } from '../../db/client';
import { hashPassword } from './passwords';
import { findUserByEmail, insertUser } from './users.repository';

export const DEMO_PASSWORD = 'HoHoHo-2026!';

/** Staff demo accounts have a role (decision 0050) and no second factor at start; customers have none. */
export const DEMO_ACCOUNTS: readonly {
  email: string;
  firstName: string;
  lastName: string;
  verified: boolean;
  staffRole: StaffRole | null;
}[] = [
  { email: 'demo@kringle.test', firstName: 'Holly', lastName: 'Winters', verified: true, staffRole: null },
  { email: 'new@kringle.test', firstName: 'Noel', lastName: 'Carter', verified: false, staffRole: null },
  { email: 'elf@kringle.test', firstName: 'Buddy', lastName: 'Elf', verified: true, staffRole: 'set' },
  { email: 'support@kringle.test', firstName: 'Carol', lastName: 'Bell', verified: true, staffRole: 'support' },
  { email: 'manager@kringle.test', firstName: 'Nicholas', lastName: 'Frost', verified: true, staffRole: 'manager' },
];

/**
 * The demo accounts of API.md, for the embedded default only (start.ts never calls this when
 * DATABASE_URL is set). Idempotent: existing accounts are left exactly as they are.
 */
export async function seedDemoAccounts(db: Db, now: Date): Promise<void> {
  for (const account of DEMO_ACCOUNTS) {
    if (await findUserByEmail(db, account.email)) continue;
    await insertUser(db, {
      email: account.email,
      passwordHash: await hashPassword(DEMO_PASSWORD),
      firstName: account.firstName,
      lastName: account.lastName,
      isStaff: account.staffRole !== null,
      staffRole: account.staffRole,
      emailVerifiedAt: account.verified ? now : null,
      createdAt: now,
      updatedAt: now,
    });
  }
}

/**
 * The demo accounts present in this database (production refuses to start with any: their password is in the README).
 */
export async function demoAccountsIn(db: Db): Promise<string[]> {
  const found: string[] = [];
  for (const account of DEMO_ACCOUNTS) if (await findUserByEmail(db, account.email)) found.push(account.email);
  return found;
}
