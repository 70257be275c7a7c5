import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { BusinessBuyer } from '@kringle/contracts/abn';
import type { BookingDetails } from '@kringle/contracts/booking-details';
import type { Location } from '@kringle/contracts/catalogue';
import type { ReservationData } from '@kringle/contracts/reservations';
import type { ItemType } from '@kringle/contracts/statuses';
import { resetStore } from '../../../lib/reset-action';
import { clampStep, FIRST_STEP } from './wizard-steps';

/** Spec §3 booking wizard state. Location and session type are kept as the API sends them. */
export type BookingLocation = Location;
export type SlotTypeChoice = Location['slotTypes'][number];
export type { ReservationData };

export interface CartItem {
  _id: string;
  type: ItemType;
  totalQuantity: number;
  totalPrice: number;
  remove: boolean;
}

export interface CheckoutData {
  bookingId: string;
  /** Null when nothing was left for the card (a 100% code): the booking is confirmed already. */
  client_secret: string | null;
  message: string;
  /** What the card pays (the checkout's amountCents): less than the goods when a promo code applied. */
  amountCents?: number;
  /** The business or school the order was placed for (issue 51): it is on the order's tax invoice. */
  business?: BusinessBuyer | null;
  /** The donation in amountCents, as the server priced the cart (no GST in it). */
  donationCents?: number;
  /** The account credit the order spent (decision 0111): the card pays amountCents, the rest of the total. */
  creditCents?: number;
  /** What each gift voucher paid of the order (decision 0112), before the credit and the card. */
  voucherParts?: VoucherPart[];
}

/** One gift voucher's part of a cart, as the server priced it (the cart answer's `payments`). */
export interface VoucherPart {
  /** XXXX-XXXX-XXXX */
  code: string;
  cents: number;
}

/**
 * The gift vouchers given on Overview (issue 52, decision 0112), in the order they pay. What each pays depends on
 * the cart's total after the promo code and the donation, so `parts` count only for the cart they were priced for
 * (`pricedFor`, amount-due.ts); another cart is priced again before they are shown.
 */
export interface AppliedVouchers {
  codes: string[];
  /** A code paying nothing (the others cover the total) is not among them. */
  parts: VoucherPart[];
  pricedFor: string | null;
  /** Why a voucher was taken off when the cart was priced again (spent meanwhile, say), to say beside the field. */
  notice?: string | null;
}

/**
 * A promo code the server priced for this cart (POST /cart). Its cents depend only on the goods' total and on
 * the held session's location and type, so a different total or hold is priced again before it is shown.
 */
export interface AppliedPromo {
  code: string;
  cents: number;
  /** The cart's GST and what the card pays, as the server priced them with the code. */
  gstCents: number;
  dueCents: number;
  goodsCents: number;
  holdId: string;
}

export type RescheduleData = Record<string, unknown> & { bookingId: string };

export interface BookingState {
  location: BookingLocation | null;
  /** A list of at most one: selecting the same type again clears it (spec §3). */
  slotType: SlotTypeChoice[];
  packages: Record<string, CartItem>;
  showCart: boolean;
  reservationData: ReservationData | null;
  checkoutData: CheckoutData | null;
  rescheduleData: RescheduleData | null;
  /** The session of a hold that just ran out, so /expired can offer it again (cleared by any new hold). */
  lapsedSlotId?: string | null;
  currentStep: number;
  /** Who's coming, as given on Overview (kept when going back from Payment). */
  details?: BookingDetails | null;
  /** The promo code given on Overview; placeOrder sends it with the cart. */
  promo?: AppliedPromo | null;
  /** The donation chosen on Overview (cents; issue 52); placeOrder sends it with the cart. */
  donationCents?: number;
  /** The account credit balance when the family chose to pay with it on Overview; null or absent: not used. */
  creditCents?: number | null;
  /** The gift vouchers given on Overview; placeOrder sends their codes with the cart. */
  vouchers?: AppliedVouchers | null;
  /**
   * The waiting room whose choices this wizard saved, with who's coming and the policy accepted
   * (issue 55): at the family's turn its held session goes straight to Payment.
   */
  queueChoicesFor?: string | null;
  /**
   * When this wizard last took, changed or dropped its hold (ms): another tab's older write is stale (hold-tabs.ts).
   */
  holdChangedAt?: number;
  /** The hold this wizard last let go, ran out of or booked: other tabs showing it drop it too (hold-tabs.ts). */
  droppedHoldId?: string | null;
  /**
   * A hold this wizard let go of that the server kept (its release refused: another tab checked
   * it out). The page opened with one resumes it (resume-hold.tsx, issue 37 item 8).
   */
  keptHoldId?: string | null;
}

export const initialBookingState: BookingState = {
  location: null,
  slotType: [],
  packages: {},
  showCart: false,
  reservationData: null,
  checkoutData: null,
  rescheduleData: null,
  lapsedSlotId: null,
  currentStep: FIRST_STEP,
  promo: null,
};

/** Stamped in the action, not the reducer, so reducers stay pure. */
type HoldChange = { at: number };
const holdChange = (): HoldChange => ({ at: Date.now() });
const droppedBy = (state: BookingState) => state.reservationData?.holdId ?? state.droppedHoldId ?? null;

const bookingSlice = createSlice({
  name: 'booking',
  initialState: initialBookingState,
  reducers: {
    setLocation(state, action: PayloadAction<BookingLocation | null>) {
      // Session types belong to a location, so another location's choice would be stale.
      if (state.location?.id !== action.payload?.id) state.slotType = [];
      state.location = action.payload;
    },
    toggleSlotType(state, action: PayloadAction<SlotTypeChoice>) {
      const same = state.slotType[0]?.id === action.payload.id;
      state.slotType = same ? [] : [action.payload];
    },
    upsertItem(
      state,
      action: PayloadAction<Omit<CartItem, 'remove' | 'totalQuantity'> & { totalQuantity?: number; remove?: boolean }>,
    ) {
      const { totalQuantity = 1, remove = false, ...rest } = action.payload;
      state.packages[rest._id] = { ...rest, totalQuantity, remove };
    },
    removeItem(state, action: PayloadAction<string>) {
      delete state.packages[action.payload];
    },
    setShowCart(state, action: PayloadAction<boolean>) {
      state.showCart = action.payload;
    },
    setReservationData: {
      reducer(state, action: PayloadAction<ReservationData | null, string, HoldChange>) {
        state.droppedHoldId = action.payload ? null : droppedBy(state);
        state.reservationData = action.payload;
        state.holdChangedAt = action.meta.at;
        if (action.payload) {
          state.lapsedSlotId = null;
          state.keptHoldId = null;
        }
      },
      prepare: (hold: ReservationData | null) => ({ payload: hold, meta: holdChange() }),
    },
    setQueueChoicesFor(state, action: PayloadAction<string | null>) {
      state.queueChoicesFor = action.payload;
    },
    setKeptHold(state, action: PayloadAction<string | null>) {
      state.keptHoldId = action.payload;
    },
    setLapsedSlot(state, action: PayloadAction<string | null>) {
      state.lapsedSlotId = action.payload;
    },
    setCheckoutData(state, action: PayloadAction<CheckoutData | null>) {
      state.checkoutData = action.payload;
    },
    setDetails(state, action: PayloadAction<BookingDetails | null>) {
      state.details = action.payload;
    },
    setPromo(state, action: PayloadAction<AppliedPromo | null>) {
      state.promo = action.payload;
    },
    setDonation(state, action: PayloadAction<number>) {
      state.donationCents = action.payload;
    },
    setCredit(state, action: PayloadAction<number | null>) {
      state.creditCents = action.payload;
    },
    setVouchers(state, action: PayloadAction<AppliedVouchers | null>) {
      // Kept while it has a code, or a notice to say why the last one came off.
      state.vouchers =
        action.payload && (action.payload.codes.length > 0 || action.payload.notice) ? action.payload : null;
    },
    /** Takes one voucher off: the others are priced again (one capped by the total may now pay more). */
    removeVoucher(state, action: PayloadAction<string>) {
      const codes = (state.vouchers?.codes ?? []).filter((c) => c !== action.payload);
      state.vouchers = codes.length > 0 ? { codes, parts: [], pricedFor: null } : null;
    },
    /**
     * Spec §4: starting a reschedule resets the booking state, keeps the location, stores the data.
     * A new wizard, so stamped; it lets no hold go on the server, so a booking in another tab keeps its own.
     */
    startReschedule: {
      reducer: (state, action: PayloadAction<RescheduleData, string, HoldChange>): BookingState => ({
        ...initialBookingState,
        location: state.location,
        rescheduleData: action.payload,
        holdChangedAt: action.meta.at,
      }),
      prepare: (data: RescheduleData) => ({ payload: data, meta: holdChange() }),
    },
    nextStep(state) {
      state.currentStep = clampStep(state.currentStep + 1);
    },
    goToStep(state, action: PayloadAction<number>) {
      state.currentStep = clampStep(action.payload);
    },
    resetStep(state) {
      state.currentStep = FIRST_STEP;
    },
    resetBooking: {
      reducer: (state, action: PayloadAction<undefined, string, HoldChange>): BookingState => ({
        ...initialBookingState,
        holdChangedAt: action.meta.at,
        droppedHoldId: droppedBy(state),
      }),
      prepare: () => ({ payload: undefined, meta: holdChange() }),
    },
    /** Another tab's wizard, whole: it holds a different session now (hold-tabs.ts). */
    adoptBooking(_state, action: PayloadAction<BookingState>) {
      return action.payload;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(resetStore, () => initialBookingState);
  },
});

export const {
  setLocation,
  toggleSlotType,
  upsertItem,
  removeItem,
  setShowCart,
  setReservationData,
  setLapsedSlot,
  setKeptHold,
  setQueueChoicesFor,
  setCheckoutData,
  setDetails,
  setPromo,
  setDonation,
  setCredit,
  setVouchers,
  removeVoucher,
  startReschedule,
  nextStep,
  goToStep,
  resetStep,
  resetBooking,
  adoptBooking,
} = bookingSlice.actions;
export const bookingReducer = bookingSlice.reducer;

type WithBooking = { booking: BookingState };

/**
 * The step to show, derived from what has been chosen: a persisted or hand-moved
 * `currentStep` never lands past a choice that is missing (no location, no type, no hold).
 */
export function activeStep(state: BookingState): number {
  const { currentStep, location, slotType, reservationData } = state;
  if (!location) return 0;
  if (slotType.length === 0) return Math.min(currentStep, 1);
  if (!reservationData) return Math.min(currentStep, 2);
  return currentStep;
}
export const selectActiveStep = (state: WithBooking) => activeStep(state.booking);
