import type { Cart, LineItem } from '@kringle/contracts/cart';
import type { z } from 'zod';
import type { createCartBodySchema } from '@kringle/contracts/cart';
import { CURRENCY, gstOf } from '@kringle/contracts/money';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../db/client';
import type { ErrorDetail } from '../../lib/app-error';
import { errors, notFound } from '../../lib/errors';
import { findReservation } from '../sessions/holds.repository';
import { findPromoByCode } from '../promos/promo-codes.repository';
import { promoCents } from '../promos/promo-pricing';
import { activeProducts, insertCart, slotTypeSlugOfSlot, type CartRow } from './cart.repository';
import { slotOf } from './checkout.repository';
import { spendableCredit } from '../credit/credit-expiry';
import { priceVouchers } from '../vouchers/voucher-spending';
import { voucherCode } from '../vouchers/voucher-codes';
import { formatVoucherCode } from '@kringle/contracts/vouchers';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config'>;
type CartBody = z.output<typeof createCartBodySchema>;

/** What the cart costs, whoever pays: the goods less the promo, plus the donation. */
export const cartTotalCents = (row: Pick<CartRow, 'amountCents' | 'discountCents' | 'donationCents'>) =>
  row.amountCents - row.discountCents + row.donationCents;

const toCart = (row: CartRow, promoCode: string | null, codeKey: string): Cart => ({
  id: row.id,
  reservationId: row.reservationId,
  items: row.items,
  amountCents: row.amountCents,
  gstCents: row.gstCents,
  discounts: promoCode ? [{ kind: 'promo', code: promoCode, cents: row.discountCents }] : [],
  payments: [
    ...row.voucherParts.map((p) => ({
      kind: 'voucher' as const,
      code: formatVoucherCode(voucherCode(codeKey, p.voucherId)),
      cents: p.cents,
    })),
    ...(row.creditCents > 0 ? [{ kind: 'credit' as const, cents: row.creditCents }] : []),
  ],
  donationCents: row.donationCents,
  dueCents: cartTotalCents(row) - row.voucherCents - row.creditCents,
  currency: CURRENCY,
});

/**
 * Prices a selection for a live hold from the catalogue. The client's `amount` only proves the
 * customer saw the same total: a different figure is refused, never charged.
 */
export async function createCart(deps: Deps, userId: string, body: CartBody, ip = ''): Promise<Cart> {
  const reservation = await findReservation(deps.db, body.reservationId, userId);
  if (!reservation) throw notFound('That reservation');
  // A hold taken to move a booking is that booking's reschedule's alone (issue 48): as a new
  // booking it would skip the five-booking limit and the waiting room, which do not ask it.
  // (A checkout names its own new booking on the hold only once it is checked out.)
  if (reservation.status === 'active' && reservation.bookingId) throw errors.rescheduleHold();
  // Its checkout lives on (issue 36: this answered HOLD_EXPIRED while the hold still held the session).
  if (reservation.status === 'checked_out')
    throw errors.cartInvalid('This session is already checked out: continue its payment from My Bookings.');
  if (reservation.status !== 'active' || reservation.expiresAt <= deps.clock.now()) {
    throw errors.holdExpired();
  }
  // Refused before anything is priced: a donation to no charity has nowhere to go.
  if (body.donationCents > 0 && !deps.config.CHARITY_NAME)
    throw errors.validation([{ path: 'body.donationCents', message: 'No donation is offered here' }]);
  const items = await priceLines(deps.db, reservation.slotId, body);
  const amountCents = items.reduce((sum, item) => sum + item.totalCents, 0);
  if (body.amount !== amountCents) {
    throw errors.priceMismatch(amountCents);
  }
  let promo: { id: string; cents: number } | null = null;
  if (body.promoCode) {
    const slot = await slotOf(deps.db, reservation.slotId);
    const found = await findPromoByCode(deps.db, body.promoCode);
    const cents = await promoCents(deps.db, found, body.promoCode, {
      userId,
      locationId: slot.locationId,
      slotTypeId: slot.slotTypeId,
      goodsCents: amountCents,
      now: deps.clock.now(),
    });
    promo = { id: found!.id, cents };
  }
  const discountCents = promo?.cents ?? 0;
  // Vouchers pay first, then credit, from what they hold now: checkout takes both again under their locks.
  const totalCents = cartTotalCents({ amountCents, discountCents, donationCents: body.donationCents });
  const voucherParts = await priceVouchers(deps, userId, ip, body.vouchers, totalCents);
  const voucherCents = voucherParts.reduce((n, p) => n + p.cents, 0);
  const creditCents = body.useCredit
    ? Math.min(totalCents - voucherCents, (await spendableCredit(deps.db, userId, deps.clock.now())).balanceCents)
    : 0;
  const row = await insertCart(deps.db, {
    userId,
    reservationId: reservation.id,
    items,
    amountCents,
    gstCents: gstOf(amountCents - discountCents),
    promoCodeId: promo?.id ?? null,
    discountCents,
    donationCents: body.donationCents,
    creditCents: Math.max(0, creditCents),
    voucherParts,
    voucherCents,
  });
  return toCart(row, promo ? body.promoCode! : null, deps.config.VOUCHER_CODE_KEY);
}

type Lines = { packages: { id: string; quantity: number }[]; addOns: { id: string; quantity: number }[] };

/**
 * Prices packages and add-ons for a session from today's catalogue; 400 VALIDATION_FAILED for
 * one not offered there or over its limit. Shared by the cart and the staff app's walk-ins.
 */
export async function priceLines(db: DbOrTx, slotId: string, body: Lines): Promise<LineItem[]> {
  const typeSlug = await slotTypeSlugOfSlot(db, slotId);
  const found = await activeProducts(
    db,
    body.packages.map((p) => p.id),
    body.addOns.map((a) => a.id),
  );
  const problems: ErrorDetail[] = [];
  const items: LineItem[] = [];

  body.packages.forEach((line, i) => {
    const pkg = found.packages.find((p) => p.id === line.id);
    if (!pkg || (pkg.slotTypeSlugs && typeSlug && !pkg.slotTypeSlugs.includes(typeSlug))) {
      problems.push({ path: `body.packages.${i}.id`, message: 'This package is not offered for this session' });
    } else if (line.quantity > pkg.maxQuantity) {
      problems.push({ path: `body.packages.${i}.quantity`, message: `At most ${pkg.maxQuantity}` });
    } else {
      items.push({
        id: pkg.id,
        type: 'package',
        name: pkg.name,
        quantity: line.quantity,
        unitPriceCents: pkg.priceCents,
        totalCents: pkg.priceCents * line.quantity,
      });
    }
  });
  body.addOns.forEach((line, i) => {
    const extra = found.addOns.find((a) => a.id === line.id);
    if (!extra) {
      problems.push({ path: `body.addOns.${i}.id`, message: 'This add-on is not available' });
    } else if (line.quantity > extra.maxQuantity) {
      problems.push({ path: `body.addOns.${i}.quantity`, message: `At most ${extra.maxQuantity}` });
    } else {
      items.push({
        id: extra.id,
        type: 'add_on',
        name: extra.name,
        quantity: line.quantity,
        unitPriceCents: extra.priceCents,
        totalCents: extra.priceCents * line.quantity,
      });
    }
  });
  if (problems.length) throw errors.validation(problems, 'Some items in your cart are not available.');
  return items;
}
