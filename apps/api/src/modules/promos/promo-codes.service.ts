import type { z } from 'zod';
import {
  PROMO_VALUE_MESSAGE,
  promoValueFits,
  type PromoCode,
  type promoCodeBodySchema,
  type promoCodePatchSchema,
} from '@kringle/contracts/promos';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client';
import { transactionWithRetry } from '../../db/retry-transaction';
import { errors, notFound } from '../../lib/errors';
import { insertAuditEntry, staffActor } from '../audit-trail/audit-entries.repository';
import {
  findPromo,
  insertPromo,
  listPromos,
  updatePromo,
  type NewPromo,
  type PromoRow,
  type PromoWithUses,
} from './promo-codes.repository';

type Deps = Pick<FastifyInstance, 'db' | 'clock'>;
type Body = z.output<typeof promoCodeBodySchema>;
type Patch = z.output<typeof promoCodePatchSchema>;
type Staff = { userId: string; email: string };
/** The manager's locations (empty: every location). */
type Reach = { locationIds: string[] };

const toPromo = (p: PromoWithUses): PromoCode => ({
  id: p.id,
  code: p.code,
  kind: p.kind,
  value: p.value,
  validFrom: p.validFrom.toISOString(),
  validTo: p.validTo.toISOString(),
  locationIds: p.locationIds,
  slotTypeIds: p.slotTypeIds,
  maxUses: p.maxUses,
  maxUsesPerFamily: p.maxUsesPerFamily,
  minSpendCents: p.minSpendCents,
  active: p.active,
  uses: p.uses,
  createdAt: p.createdAt.toISOString(),
});

/** What the audit trail keeps of a code: its id (the entry's subject, migration 0043) and rules, not its uses. */
const rulesOf = (p: PromoRow) => {
  const { id, uses: _uses, createdAt: _at, ...rules } = toPromo({ ...p, uses: 0 });
  return { promoCodeId: id, ...rules };
};

/** A manager kept to some locations makes and changes codes for those only, never for all. */
function assertReach(reach: Reach, locationIds: string[] | null | undefined): void {
  if (reach.locationIds.length === 0) return;
  if (!locationIds?.length || locationIds.some((id) => !reach.locationIds.includes(id)))
    throw errors.invalidField('body.locationIds', 'Choose among your own locations');
}

const audit = (
  tx: Tx,
  staff: Staff,
  at: Date,
  action: 'promo.created' | 'promo.changed',
  before: object,
  after: object,
) =>
  insertAuditEntry(tx, {
    at,
    actor: staffActor(staff),
    action,
    bookingId: null,
    orderId: null,
    reason: null,
    before: before as Record<string, unknown>,
    after: after as Record<string, unknown>,
  });

export async function promoList(deps: Deps): Promise<PromoCode[]> {
  return (await listPromos(deps.db)).map(toPromo);
}

export async function createPromo(deps: Deps, staff: Staff, reach: Reach, body: Body): Promise<PromoCode> {
  assertReach(reach, body.locationIds);
  const now = deps.clock.now();
  const values: NewPromo = {
    ...body,
    validFrom: new Date(body.validFrom),
    validTo: new Date(body.validTo),
    locationIds: body.locationIds?.length ? body.locationIds : null,
    slotTypeIds: body.slotTypeIds?.length ? body.slotTypeIds : null,
    maxUses: body.maxUses ?? null,
    minSpendCents: body.minSpendCents ?? null,
    createdBy: staff.userId,
    createdAt: now,
  };
  const created = await transactionWithRetry(deps.db, async (tx) => {
    const row = await insertPromo(tx, values);
    if (!row) throw errors.promoCodeTaken();
    await audit(tx, staff, now, 'promo.created', {}, rulesOf(row));
    return row;
  });
  return toPromo({ ...created, uses: 0 });
}

export async function changePromo(
  deps: Deps,
  staff: Staff,
  reach: Reach,
  id: string,
  patch: Patch,
): Promise<PromoCode> {
  const now = deps.clock.now();
  await transactionWithRetry(deps.db, async (tx) => {
    const before = await findPromo(tx, id);
    if (!before) throw notFound('That promo code');
    assertReach(reach, before.locationIds);
    if (patch.locationIds !== undefined) assertReach(reach, patch.locationIds);
    const next = {
      ...patch,
      ...(patch.validFrom ? { validFrom: new Date(patch.validFrom) } : {}),
      ...(patch.validTo ? { validTo: new Date(patch.validTo) } : {}),
      ...(patch.locationIds !== undefined ? { locationIds: patch.locationIds?.length ? patch.locationIds : null } : {}),
      ...(patch.slotTypeIds !== undefined ? { slotTypeIds: patch.slotTypeIds?.length ? patch.slotTypeIds : null } : {}),
    } as Partial<NewPromo>;
    const merged = { ...before, ...next };
    if (!promoValueFits(merged.kind, merged.value)) throw errors.invalidField('body.value', PROMO_VALUE_MESSAGE);
    if (merged.validTo <= merged.validFrom)
      throw errors.invalidField('body.validTo', 'The end must come after the start');
    const after = await updatePromo(tx, id, next);
    await audit(tx, staff, now, 'promo.changed', rulesOf(before), rulesOf(after!));
  });
  return toPromo((await findPromo(deps.db, id))!);
}
