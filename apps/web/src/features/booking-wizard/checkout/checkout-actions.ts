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
  upsertItem,
  removeItem,
} from '../state/booking-slice';
import { setEndDate } from '../state/timer-slice';
import { stepIndex } from '../state/wizard-steps';
import { bookingApi } from '../api';
import { checkoutApi } from './api';
import { promoOf } from './amount-due';
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

/**
 * POST /cart for the held session with the current lines and `code`: the applied promo code follows the
 * server's answer (its figures, or dropped when it does not apply); a price change re-prices the lines.
 */
const pricedCart = createAsyncThunk<
  { ok: true; id: string; donationCents: number; creditCents: number } | { ok: false; error: ApiError },
  string | null,
  { state: WizardRootState }
>('booking/pricedCart', async (code, { dispatch, getState }) => {
  const { reservationData, packages, donationCents, creditCents } = getState().booking;
  if (!reservationData) return { ok: false, error: noHold };
  const cart = await dispatch(
    checkoutApi.endpoints.createCart.initiate(
      toCartBody(reservationData.holdId, packages, code, donationCents, Boolean(creditCents)),
    ),
  );
  if (cart.error) {
    const error = asApiError(cart.error);
    if (error.data.code === PROMO_INVALID) dispatch(setPromo(null));
    if (PRICE_CODES.includes(error.data.code)) await dispatch(refreshPrices());
    return { ok: false, error };
  }
  dispatch(setPromo(promoOf(cart.data, reservationData.holdId)));
  const credit = cart.data.payments.find((p) => p.kind === 'credit')?.cents ?? 0;
  return { ok: true, id: cart.data.id, donationCents: cart.data.donationCents, creditCents: credit };
});

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
  const cart = await dispatch(pricedCart(promo?.code ?? null)).unwrap();
  if (!cart.ok) return rejectWithValue(cart.error);
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
    const cart = await dispatch(pricedCart(code)).unwrap();
    if (!cart.ok) return rejectWithValue(cart.error);
  },
);
