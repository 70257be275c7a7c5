import type { Db } from '../../db/client';
import { hashPassword } from './passwords';
import { findUserByEmail, insertUser } from './users.repository';

export const DEMO_PASSWORD = 'HoHoHo-2026!';

export const DEMO_ACCOUNTS = [
  { email: 'demo@kringle.test', firstName: 'Holly', lastName: 'Winters', verified: true, isStaff: false },
  { email: 'new@kringle.test', firstName: 'Noel', lastName: 'Carter', verified: false, isStaff: false },
  { email: 'elf@kringle.test', firstName: 'Buddy', lastName: 'Elf', verified: true, isStaff: true },
] as const;

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
      isStaff: account.isStaff,
      emailVerifiedAt: account.verified ? now : null,
      createdAt: now,
      updatedAt: now,
    });
  }
}

/** The demo accounts present in this database (production refuses to start with any: their password is in the README). */
export async function demoAccountsIn(db: Db): Promise<string[]> {
  const found: string[] = [];
  for (const account of DEMO_ACCOUNTS) if (await findUserByEmail(db, account.email)) found.push(account.email);
  return found;
}
