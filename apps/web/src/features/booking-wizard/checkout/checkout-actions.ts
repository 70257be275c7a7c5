import { createAsyncThunk } from '@reduxjs/toolkit';
import type { BusinessBuyer } from '@kringle/contracts/abn';
import type { BookingDetails } from '@kringle/contracts/booking-details';
import { api } from '../../../lib/api';
import { track } from '../../../lib/analytics';
import type { ApiError } from '../../../lib/api-error';
import type { WizardRootState } from '../state/booking-hooks';
import {
  goToStep,
  setCheckoutData,
  setPromo,
  setReservationData,
  setVouchers,
  upsertItem,
  removeItem,
  type VoucherPart,
} from '../state/booking-slice';
import { setEndDate } from '../state/timer-slice';
import { stepIndex } from '../state/wizard-steps';
import { bookingApi } from '../api';
import { checkoutApi } from './api';
import { promoOf, voucherPartsOf, voucherPricingKey } from './amount-due';
import { activeItems, ecommerce, repriced, toCartBody, type Catalogue } from './cart-math';
import { whosComingApi } from '../../../components/whos-coming/api';

type ThunkConfig = { state: WizardRootState; rejectValue: ApiError };

const asApiError = (error: unknown): ApiError =>
  error && typeof error === 'object' && 'data' in error
    ? (error as ApiError)
    : { status: 'FETCH_ERROR', data: { error: 'Something went wrong. Please try again.', code: 'UNKNOWN' } };

/** Codes after which the cart is re-priced from a fresh catalogue and shown again. */
export const PRICE_CODES = ['PRICE_MISMATCH', 'CART_INVALID'];
/** The cart's answer when its promo code does not apply: `error` is the sentence to show. */
export const PROMO_INVALID = 'PROMO_INVALID';
/** The cart's (or the checkout's) answer when a gift voucher pays nothing here: `error` says why. */
export const VOUCHER_INVALID = 'VOUCHER_INVALID';

/** Which of the cart's codes a VOUCHER_INVALID names (`body.vouchers.N`); null when the checkout refused them all. */
export function refusedVoucherIndex(error: ApiError): number | null {
  if (error.data.code !== VOUCHER_INVALID) return null;
  const match = /^body\.vouchers\.(\d+)$/.exec(error.data.details?.[0]?.path ?? '');
  return match ? Number(match[1]) : null;
}
const noHold: ApiError = { status: 409, data: { error: 'There is no session on hold.', code: 'HOLD_EXPIRED' } };

/** Fetches today's prices and re-prices the stored cart with them. */
const refreshPrices = createAsyncThunk<void, void, ThunkConfig>(
  'booking/refreshPrices',
  async (_, { dispatch, getState }) => {
    const { location, slotType, packages } = getState().booking;
    if (!location || !slotType[0]) return;
    dispatch(api.util.invalidateTags(['GET_PACKAGES', 'GET_ADD_ONS']));
    const [pkgs, extras] = await Promise.all([
      dispatch(
        checkoutApi.endpoints.wizardPackages.initiate(
          { locationId: location.id, slotTypeId: slotType[0].id },
          { forceRefetch: true, subscribe: false },
        ),
      ),
      dispatch(
        checkoutApi.endpoints.wizardAddOns.initiate(
          { locationId: location.id },
          { forceRefetch: true, subscribe: false },
        ),
      ),
    ]);
    if (!pkgs.data || !extras.data) return;
    const fresh = repriced(packages, new Map([...pkgs.data, ...extras.data].map((i) => [i.id, i])));
    for (const id of Object.keys(packages)) if (!fresh[id]) dispatch(removeItem(id));
    for (const line of Object.values(fresh)) dispatch(upsertItem(line));
  },
);

/** Who's coming goes onto the unpaid booking before Payment shows: the web's gate (decision 0021). */
async function saveDetails(
  dispatch: (a: unknown) => unknown,
  bookingId: string,
  details: BookingDetails,
): Promise<ApiError | null> {
  const saved = (await dispatch(whosComingApi.endpoints.saveBookingDetails.initiate({ id: bookingId, details }))) as {
    error?: unknown;
  };
  return saved.error ? asApiError(saved.error) : null;
}

type PricedCart =
  | {
      ok: true;
      id: string;
      donationCents: number;
      creditCents: number;
      voucherParts: VoucherPart[];
      /** Codes the server refused and that were taken off (their reason is the vouchers' notice). */
      dropped: string[];
    }
  | { ok: false; error: ApiError };

/**
 * POST /cart for the held session with the current lines, the promo code `code` and the gift vouchers (with `add`
 * after them): the applied promo code and vouchers follow the server's answer (its figures, or dropped when they do
 * not apply); a price change re-prices the lines. A voucher already applied that the server now refuses (spent
 * meanwhile) is taken off with its reason and the cart asked again; a refused `add` is the answer.
 */
const pricedCart = createAsyncThunk<PricedCart, { code: string | null; add?: string }, { state: WizardRootState }>(
  'booking/pricedCart',
  async ({ code, add }, { dispatch, getState }) => {
    const dropped: string[] = [];
    let notice: string | null = null;
    for (;;) {
      const booking = getState().booking;
      const { reservationData, packages, donationCents, creditCents } = booking;
      if (!reservationData) return { ok: false, error: noHold };
      const kept = (booking.vouchers?.codes ?? []).filter((c) => c !== add && !dropped.includes(c));
      const codes = add ? [...kept, add] : kept;
      const pricedFor = voucherPricingKey(booking, code);
      const cart = await dispatch(
        checkoutApi.endpoints.createCart.initiate(
          toCartBody(reservationData.holdId, packages, code, donationCents, Boolean(creditCents), codes),
        ),
      );
      if (cart.error) {
        const error = asApiError(cart.error);
        const refused = refusedVoucherIndex(error);
        if (refused !== null && refused < kept.length) {
          // One applied before: off it comes, saying why, and the rest are priced again.
          dropped.push(kept[refused]!);
          notice = `${error.data.error} We have taken gift voucher ${kept[refused]} off your booking.`;
          dispatch(
            setVouchers({
              codes: kept.filter((_, i) => i !== refused),
              parts: [],
              pricedFor: null,
              notice,
            }),
          );
          continue;
        }
        if (error.data.code === PROMO_INVALID) dispatch(setPromo(null));
        if (PRICE_CODES.includes(error.data.code)) await dispatch(refreshPrices());
        return { ok: false, error };
      }
      dispatch(setPromo(promoOf(cart.data, reservationData.holdId)));
      const voucherParts = voucherPartsOf(cart.data);
      dispatch(setVouchers({ codes, parts: voucherParts, pricedFor, notice }));
      const credit = cart.data.payments.find((p) => p.kind === 'credit')?.cents ?? 0;
      return {
        ok: true,
        id: cart.data.id,
        donationCents: cart.data.donationCents,
        creditCents: credit,
        voucherParts,
        dropped,
      };
    }
  },
);

/**
 * Overview's Continue: the cart (POST /cart with the total shown), the checkout (booking, order,
 * PaymentIntent), then who's coming on that booking. checkoutOrder is idempotent per cart, so a retry is safe.
 */
export const placeOrder = createAsyncThunk<
  void,
  { catalogue: Catalogue; details: BookingDetails; business?: BusinessBuyer | null },
  ThunkConfig
>('booking/placeOrder', async ({ catalogue, details, business = null }, { dispatch, getState, rejectWithValue }) => {
  const { reservationData, packages, checkoutData, promo } = getState().booking;
  if (!reservationData) return rejectWithValue(noHold);
  if (checkoutData) {
    // Already checked out (back from Payment): go on, unless the order belongs to an earlier hold.
    const hold = await dispatch(
      bookingApi.endpoints.getReservation.initiate(reservationData.holdId, { forceRefetch: true, subscribe: false }),
    );
    if (hold.data?.bookingId === checkoutData.bookingId) {
      const failed = await saveDetails(dispatch, checkoutData.bookingId, details);
      if (failed) return rejectWithValue(failed);
      dispatch(goToStep(stepIndex('payment')));
      return;
    }
    dispatch(setCheckoutData(null));
  }
  const cart = await dispatch(pricedCart({ code: promo?.code ?? null })).unwrap();
  if (!cart.ok) return rejectWithValue(cart.error);
  // A voucher came off as the cart was priced: the family sees the new total (and why) before paying it.
  if (cart.dropped.length > 0) {
    const notice = getState().booking.vouchers?.notice ?? 'A gift voucher on your booking can no longer be used.';
    return rejectWithValue({ status: 409, data: { error: notice, code: VOUCHER_INVALID } });
  }
  const order = await dispatch(
    checkoutApi.endpoints.checkoutOrder.initiate({
      holdId: reservationData.holdId,
      cartId: cart.id,
      ...(business ? { business } : {}),
    }),
  );
  if (order.error) {
    const error = asApiError(order.error);
    if (PRICE_CODES.includes(error.data.code)) await dispatch(refreshPrices());
    // A voucher spent elsewhere between the cart and the checkout: its parts are priced again.
    const vouchers = getState().booking.vouchers;
    if (error.data.code === VOUCHER_INVALID && vouchers) dispatch(setVouchers({ ...vouchers, pricedFor: null }));
    return rejectWithValue(error);
  }
  const result = order.data;
  dispatch(
    setCheckoutData({
      bookingId: result.bookingId,
      client_secret: result.client_secret,
      message: result.message,
      amountCents: result.amountCents,
      business,
      donationCents: cart.donationCents,
      creditCents: cart.creditCents,
      voucherParts: cart.voucherParts,
    }),
  );
  const failed = await saveDetails(dispatch, result.bookingId, details);
  if (failed) return rejectWithValue(failed);
  // The hold's end is the server's; keep the countdown on it.
  if (result.expiresAt !== reservationData.expiresAt) {
    dispatch(setReservationData({ ...reservationData, expiresAt: result.expiresAt }));
    dispatch(setEndDate(result.expiresAt));
  }
  const priced = getState().booking.promo;
  track('begin_checkout', { ...ecommerce(activeItems(packages), catalogue, priced), transaction_id: result.bookingId });
  // With nothing left for the card (client_secret null) Payment sends the family straight to the confirmation.
  dispatch(goToStep(stepIndex('payment')));
});

/** Overview's Apply (and its re-pricing after the cart or the hold changed): prices the cart with `code`. */
export const applyPromo = createAsyncThunk<void, string, ThunkConfig>(
  'booking/applyPromo',
  async (code, { dispatch, rejectWithValue }) => {
    const cart = await dispatch(pricedCart({ code })).unwrap();
    if (!cart.ok) return rejectWithValue(cart.error);
  },
);

/**
 * Overview's gift voucher Apply (issue 52): prices the cart with `code` after the vouchers already applied; the
 * server says why one does not apply (VOUCHER_INVALID). Without a code, the applied vouchers are priced again
 * (the goods, the promo code or the donation changed).
 */
export const applyVoucher = createAsyncThunk<void, string | null, ThunkConfig>(
  'booking/applyVoucher',
  async (code, { dispatch, getState, rejectWithValue }) => {
    const promo = getState().booking.promo?.code ?? null;
    const cart = await dispatch(pricedCart({ code: promo, ...(code ? { add: code } : {}) })).unwrap();
    if (!cart.ok) return rejectWithValue(cart.error);
  },
);
