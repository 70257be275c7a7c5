import { eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { promoCodes } from '../../db/schema/promos';

/** The promo codes' SQL (migration 0043, issue 52). */
export type PromoRow = typeof promoCodes.$inferSelect;
export type NewPromo = typeof promoCodes.$inferInsert;

/**
 * A use is an order with the code whose booking is paid or still being paid: a checkout that
 * lapsed, was cancelled or refunded gives its use back (API.md: each part back where it came from).
 */
const usesOf = (familyId: string | null) => sql<number>`(
  select count(*)::int from orders o join bookings b on b.id = o.booking_id
  where o.promo_code_id = promo_codes.id
    and b.status in ('payment_pending', 'payment_failed', 'completed')
    ${familyId ? sql`and o.user_id = ${familyId}::uuid` : sql``}
)`;

export type PromoWithUses = PromoRow & { uses: number };

export async function listPromos(db: DbOrTx): Promise<PromoWithUses[]> {
  return db
    .select({ promo: promoCodes, uses: usesOf(null) })
    .from(promoCodes)
    .orderBy(sql`${promoCodes.createdAt} desc`)
    .then((rows) => rows.map((r) => ({ ...r.promo, uses: r.uses })));
}

export async function findPromoByCode(db: DbOrTx, code: string): Promise<PromoRow | undefined> {
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.code, code));
  return row;
}

export async function findPromo(db: DbOrTx, id: string): Promise<PromoWithUses | undefined> {
  const [row] = await db
    .select({ promo: promoCodes, uses: usesOf(null) })
    .from(promoCodes)
    .where(eq(promoCodes.id, id));
  return row && { ...row.promo, uses: row.uses };
}

/**
 * The code's row, locked for the checkout's transaction: checkouts using it one after another, on
 * any number of API processes, each count the uses the one before committed.
 */
export async function lockPromo(tx: Tx, id: string): Promise<PromoRow | undefined> {
  const [row] = await tx.select().from(promoCodes).where(eq(promoCodes.id, id)).for('update');
  return row;
}

/** Its uses in all and the family's own. */
export async function promoUses(db: DbOrTx, id: string, familyId: string): Promise<{ all: number; family: number }> {
  const [row] = await db
    .select({ all: usesOf(null), family: usesOf(familyId) })
    .from(promoCodes)
    .where(eq(promoCodes.id, id));
  return row ?? { all: 0, family: 0 };
}

/** Undefined when the code is taken. */
export async function insertPromo(tx: Tx, values: NewPromo): Promise<PromoRow | undefined> {
  const [row] = await tx.insert(promoCodes).values(values).onConflictDoNothing({ target: promoCodes.code }).returning();
  return row;
}

export async function updatePromo(tx: Tx, id: string, set: Partial<NewPromo>): Promise<PromoRow | undefined> {
  const [row] = await tx.update(promoCodes).set(set).where(eq(promoCodes.id, id)).returning();
  return row;
}
