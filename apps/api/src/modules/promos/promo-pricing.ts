import { formatAud } from '@kringle/contracts/money';
import { promoDiscountCents } from '@kringle/contracts/promos';
import type { DbOrTx } from '../../db/client';
import { errors } from '../../lib/errors';
import { promoUses, type PromoRow } from './promo-codes.repository';

export interface PromoCart {
  userId: string;
  locationId: string;
  slotTypeId: string;
  /** The goods' total, before the code. */
  goodsCents: number;
  now: Date;
}

/**
 * The cents the code takes off this cart, or 409 PROMO_INVALID saying why not. The cart prices it
 * and the checkout prices it again under the code's row lock, with the uses committed by then.
 */
export async function promoCents(db: DbOrTx, promo: PromoRow | undefined, code: string, cart: PromoCart) {
  if (!promo) throw errors.promoInvalid('unknown', `We do not know the code ${code}. Check it and try again.`);
  if (!promo.active || cart.now >= promo.validTo) throw errors.promoInvalid('expired', `The code ${code} has ended.`);
  if (cart.now < promo.validFrom) throw errors.promoInvalid('not_started', `The code ${code} cannot be used yet.`);
  if (
    (promo.locationIds && !promo.locationIds.includes(cart.locationId)) ||
    (promo.slotTypeIds && !promo.slotTypeIds.includes(cart.slotTypeId))
  )
    throw errors.promoInvalid('not_here', `The code ${code} is not for this location or session.`);
  if (promo.minSpendCents !== null && cart.goodsCents < promo.minSpendCents)
    throw errors.promoInvalid(
      'min_spend',
      `The code ${code} needs an order of at least ${formatAud(promo.minSpendCents)}.`,
    );
  const uses = await promoUses(db, promo.id, cart.userId);
  if (uses.family >= promo.maxUsesPerFamily)
    throw errors.promoInvalid('used_up', `You have already used the code ${code}.`);
  if (promo.maxUses !== null && uses.all >= promo.maxUses)
    throw errors.promoInvalid('used_up', `The code ${code} has been used as many times as it can be.`);
  return promoDiscountCents(promo.kind, promo.value, cart.goodsCents);
}
