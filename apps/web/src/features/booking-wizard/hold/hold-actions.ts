import { createAsyncThunk } from '@reduxjs/toolkit';
import type { Slot } from '@kringle/contracts/catalogue';
import { localDateOf } from '@kringle/contracts/dates';
import type { Booking } from '@kringle/contracts/bookings';
import { toReservationData, type Reservation } from '@kringle/contracts/reservations';
import { track } from '../../../lib/analytics';
import type { ApiError } from '../../../lib/api-error';
import { bookingApi } from '../api';
import {
  activeStep,
  goToStep,
  resetBooking,
  setCheckoutData,
  setKeptHold,
  setLapsedSlot,
  setReservationData,
} from '../state/booking-slice';
import type { WizardRootState } from '../state/booking-hooks';
import { setEndDate, stopTimer, tick } from '../state/timer-slice';
import { askRelease, releaseAsked } from './release-ask';
import { stepIndex } from '../state/wizard-steps';

type ThunkConfig = { state: WizardRootState; rejectValue: ApiError };

const asApiError = (error: unknown): ApiError =>
  error && typeof error === 'object' && 'data' in error
    ? (error as ApiError)
    : { status: 'FETCH_ERROR', data: { error: 'Something went wrong. Please try again.', code: 'UNKNOWN' } };

/**
 * Picking a session takes the hold. A family holds one session at a time (decision 0059): when
 * the server answers HOLD_LIMIT and this wizard holds another session, that one is let go and the
 * new one asked again. Asking first keeps the old hold when the new session is taken, or when the
 * family is cooling down after letting several go (HOLD_COOLDOWN, shown as the server words it).
 */
export const takeHold = createAsyncThunk<Reservation, Slot, ThunkConfig>(
  'booking/takeHold',
  async (slot, { dispatch, getState, rejectWithValue }) => {
    const { location, slotType, rescheduleData } = getState().booking;
    // When rescheduling, the hold names the booking it will move (API.md).
    const body = rescheduleData ? { slotId: slot.id, bookingId: rescheduleData.bookingId } : { slotId: slot.id };
    let result = await dispatch(bookingApi.endpoints.createReservation.initiate(body));
    if (result.error && asApiError(result.error).data.code === 'HOLD_LIMIT' && getState().booking.reservationData) {
      await dispatch(releaseHold());
      result = await dispatch(bookingApi.endpoints.createReservation.initiate(body));
    }
    if (result.error) return rejectWithValue(asApiError(result.error));
    const reservation = result.data;
    dispatch(setReservationData(toReservationData(reservation)));
    dispatch(setEndDate(reservation.expiresAt));
    dispatch(goToStep(stepIndex('package')));
    track('schedule_session', {
      location_id: reservation.locationId,
      location_name: location?.name,
      slot_type: slotType[0]?.name,
      session_date: location ? localDateOf(new Date(slot.startAt), location.timezone) : undefined,
      session_start: slot.startAt,
    });
    return reservation;
  },
);

/**
 * Rescheduling (spec §4): picking the new session holds it for the booking and moves the booking
 * there at once, skipping package and payment. If the move is refused the new hold is let go and
 * the booking stays where it was.
 */
export const moveBookingTo = createAsyncThunk<Booking, Slot, ThunkConfig>(
  'booking/moveBookingTo',
  async (slot, { dispatch, getState, rejectWithValue }) => {
    const { rescheduleData, location } = getState().booking;
    if (!rescheduleData)
      return rejectWithValue({ status: 400, data: { error: 'There is no booking to move.', code: 'NOT_FOUND' } });
    const hold = await dispatch(
      bookingApi.endpoints.createReservation.initiate({ slotId: slot.id, bookingId: rescheduleData.bookingId }),
    );
    if (hold.error) return rejectWithValue(asApiError(hold.error));
    const moved = await dispatch(
      bookingApi.endpoints.rescheduleBooking.initiate({
        bookingId: rescheduleData.bookingId,
        reservationId: hold.data.id,
      }),
    );
    if (moved.error) {
      await dispatch(bookingApi.endpoints.cancelReservation.initiate(hold.data.id));
      return rejectWithValue(asApiError(moved.error));
    }
    track('reschedule_session', {
      booking_id: moved.data.id,
      location_id: location?.id,
      session_start: moved.data.slot.startAt,
      reschedule_count: moved.data.rescheduleCount,
    });
    dispatch(stopTimer());
    dispatch(resetBooking());
    return moved.data;
  },
);

/** Lets the held session go (leaving the Session step backwards). Failure is harmless: the hold lapses by itself. */
export const releaseHold = createAsyncThunk<void, void, ThunkConfig>(
  'booking/releaseHold',
  async (_, { dispatch, getState }) => {
    const { reservationData: hold, checkoutData } = getState().booking;
    dispatch(setReservationData(null));
    dispatch(stopTimer());
    // Checked out (a payment pending or declined): the hold is the booking's, which the server will
    // not release on its own (409): the unpaid booking is cancelled instead, so the wizard and the
    // server tell the same story (issue 37 item 2).
    if (checkoutData) {
      dispatch(setCheckoutData(null));
      await dispatch(bookingApi.endpoints.cancelUnpaidBooking.initiate(checkoutData.bookingId));
    } else if (hold) {
      const released = await dispatch(bookingApi.endpoints.cancelReservation.initiate(hold.holdId));
      // Refused (409): the server keeps it, another tab having checked it out. Remembered, so this
      // tab reloaded resumes that booking as a single tab would (issue 37 item 8).
      if (released.error && asApiError(released.error).status === 409) dispatch(setKeptHold(hold.holdId));
    }
  },
);

/**
 * The wizard moves to a step by history (use-step-history.ts: the browser's Back or Forward, or a
 * step's Back button). Going back before the Session step with a session held asks first ("Let go
 * of Thu 10 Dec 1:00 pm?", release-ask.ts; issue 37 item 2): nothing moves until the family answers.
 */
export const popToStep = createAsyncThunk<void, number, ThunkConfig>(
  'booking/popToStep',
  (target, { dispatch, getState }) => {
    const { booking } = getState();
    const here = activeStep(booking);
    if (target === here) {
      askRelease(null);
      return;
    }
    if (target < stepIndex('sessionTime') && booking.reservationData) {
      askRelease(target);
      return;
    }
    dispatch(goToStep(target));
  },
);

/** "Let it go": the answer to popToStep's question. The hold goes, and the wizard goes back. */
export const letGoAndGoBack = createAsyncThunk<void, void, ThunkConfig>('booking/letGoAndGoBack', (_, { dispatch }) => {
  const target = releaseAsked();
  askRelease(null);
  if (target === null) return;
  void dispatch(releaseHold());
  dispatch(goToStep(target));
});

/**
 * "Keep my session": the wizard stays. When the browser's Back already moved to the earlier step's
 * history entry, Forward returns to this step's own entry (its popstate lands on this step: no-op).
 */
export function keepHoldAndStay(currentStep: number) {
  askRelease(null);
  const steps = (window.history.state as { wizardSteps?: number[] } | null)?.wizardSteps;
  if (Array.isArray(steps) && steps[steps.length - 1] !== currentStep) window.history.forward();
}

/** "I need more time": a fresh hold length from now, within the refresh limit. */
export const extendHold = createAsyncThunk<Reservation, void, ThunkConfig>(
  'booking/extendHold',
  async (_, { dispatch, getState, rejectWithValue }) => {
    const hold = getState().booking.reservationData;
    if (!hold)
      return rejectWithValue({ status: 409, data: { error: 'There is no session on hold.', code: 'HOLD_EXPIRED' } });
    const result = await dispatch(bookingApi.endpoints.refreshReservation.initiate(hold.holdId));
    if (result.error) return rejectWithValue(asApiError(result.error));
    dispatch(setReservationData(toReservationData(result.data)));
    dispatch(setEndDate(result.data.expiresAt));
    return result.data;
  },
);

/**
 * One countdown tick. Resolves true when the hold has just run out: the app cancels nothing on
 * the server (the hold lapses there by itself) and forgets the hold so nothing stale remains.
 */
export const tickHold = createAsyncThunk<boolean, void, ThunkConfig>(
  'booking/tickHold',
  (_, { dispatch, getState }) => {
    dispatch(tick());
    const { timer, booking } = getState();
    if (timer.isRunning || !booking.reservationData) return false;
    const lapsed = booking.reservationData.slotId;
    dispatch(setReservationData(null));
    dispatch(setLapsedSlot(lapsed));
    dispatch(goToStep(stepIndex('sessionTime')));
    return true;
  },
);

/** Starts the countdown for a hold that survived a reload (the timer slice is not persisted). */
export const resumeHold = createAsyncThunk<boolean, void, ThunkConfig>(
  'booking/resumeHold',
  (_, { dispatch, getState }) => {
    const hold = getState().booking.reservationData;
    if (!hold) return false;
    if (getState().timer.endDate !== hold.expiresAt) dispatch(setEndDate(hold.expiresAt));
    return dispatch(tickHold()).unwrap();
  },
);

/**
 * /expired's second chance: location, type and packages stay; the lapsed checkout (if any) goes,
 * since its booking was cancelled with the hold. `slot` given: hold that same session again;
 * otherwise open the Session step (the page passes the day in the address).
 */
export const tryAgain = createAsyncThunk<boolean, Slot | null, ThunkConfig>(
  'booking/tryAgain',
  async (slot, { dispatch }) => {
    dispatch(setCheckoutData(null));
    dispatch(setReservationData(null));
    dispatch(stopTimer());
    if (slot) {
      const held = await dispatch(takeHold(slot));
      if (takeHold.fulfilled.match(held)) return true;
    }
    dispatch(setLapsedSlot(null));
    dispatch(goToStep(stepIndex('sessionTime')));
    return false;
  },
);

/**
 * Navigation state for /expired (expired-page.tsx) when the hold was let go elsewhere (another tab or device), not run
 * out.
 */
export const RELEASED_ELSEWHERE = { released: true } as const;
/** A HOLD_EXPIRED with more than this left on the clock here was not the clock's doing. */
const CLOCK_SLACK_SECONDS = 5;
export const expiredState = (secondsLeft: number) =>
  secondsLeft > CLOCK_SLACK_SECONDS ? { state: RELEASED_ELSEWHERE } : undefined;

/** "Start again": the wizard from the first step, with nothing kept. */
export const startOver = createAsyncThunk<void, void, ThunkConfig>('booking/startOver', (_, { dispatch }) => {
  dispatch(resetBooking());
  dispatch(stopTimer());
});
