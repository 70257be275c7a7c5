import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { carts } from '../../db/schema/bookings';
import { addOns, packages, slotTypes, slots } from '../../db/schema/catalogue';

export type CartRow = typeof carts.$inferSelect;

export async function activeProducts(db: DbOrTx, packageIds: string[], addOnIds: string[]) {
  const [pkgs, extras] = await Promise.all([
    packageIds.length
      ? db
          .select()
          .from(packages)
          .where(and(inArray(packages.id, packageIds), eq(packages.active, true)))
      : [],
    addOnIds.length
      ? db
          .select()
          .from(addOns)
          .where(and(inArray(addOns.id, addOnIds), eq(addOns.active, true)))
      : [],
  ]);
  return { packages: pkgs, addOns: extras };
}

export async function slotTypeSlugOfSlot(db: DbOrTx, slotId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ slug: slotTypes.slug })
    .from(slots)
    .innerJoin(slotTypes, eq(slotTypes.id, slots.slotTypeId))
    .where(eq(slots.id, slotId));
  return row?.slug;
}

export async function insertCart(
  db: DbOrTx,
  values: Omit<typeof carts.$inferInsert, 'id' | 'createdAt'>,
): Promise<CartRow> {
  const [row] = await db.insert(carts).values(values).returning();
  return row!;
}

export async function findCart(db: DbOrTx, id: string, userId: string): Promise<CartRow | undefined> {
  const [row] = await db
    .select()
    .from(carts)
    .where(and(eq(carts.id, id), eq(carts.userId, userId)));
  return row;
}
