import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/client';
import { users } from '../../src/db/schema/accounts';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';

export interface TestCustomer {
  id: string;
  email: string;
  idToken: string;
  headers: { authorization: string };
}

/**
 * Inserts customers straight into the database and signs their ID tokens with the app's key.
 * Skips argon2 on purpose: these tests are about catalogue and holds, not passwords.
 */
export async function createCustomers(
  db: Db,
  idTokens: IdTokens,
  count: number,
  opts: { verified?: boolean; staff?: boolean } = {},
): Promise<TestCustomer[]> {
  const rows = Array.from({ length: count }, () => ({
    id: randomUUID(),
    email: `family-${randomUUID().slice(0, 8)}@kringle.test`,
    passwordHash: 'not-a-real-hash',
    firstName: 'Test',
    lastName: 'Family',
    emailVerifiedAt: opts.verified === false ? null : new Date(),
    isStaff: opts.staff ?? false,
    staffRole: opts.staff ? ('set' as const) : null,
  }));
  if (rows.length) await db.insert(users).values(rows);
  return Promise.all(
    rows.map(async (u) => {
      const { idToken } = await idTokens.issue({
        id: u.id,
        email: u.email,
        emailVerified: opts.verified !== false,
        isStaff: u.isStaff,
        staffRole: u.staffRole,
      });
      return { id: u.id, email: u.email, idToken, headers: { authorization: `Bearer ${idToken}` } };
    }),
  );
}

export async function createCustomer(
  db: Db,
  idTokens: IdTokens,
  opts: { verified?: boolean; staff?: boolean } = {},
): Promise<TestCustomer> {
  return (await createCustomers(db, idTokens, 1, opts))[0]!;
}

/** Signs a fresh ID token at the app clock's current time (after a test moved the clock on). */
export async function reauthenticate(idTokens: IdTokens, who: TestCustomer): Promise<TestCustomer> {
  const { idToken } = await idTokens.issue({
    id: who.id,
    email: who.email,
    emailVerified: true,
    isStaff: false,
    staffRole: null,
  });
  return { ...who, idToken, headers: { authorization: `Bearer ${idToken}` } };
}
