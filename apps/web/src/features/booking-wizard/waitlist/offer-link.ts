import { createAsyncThunk } from '@reduxjs/toolkit';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatSessionTime } from '@kringle/contracts/dates';
import { toReservationData } from '@kringle/contracts/reservations';
import { track } from '../../../lib/analytics';
import { bookingApi } from '../api';
import { goToStep, resetBooking, setLocation, setReservationData, toggleSlotType } from '../state/booking-slice';
import { useWizardDispatch, type WizardRootState } from '../state/booking-hooks';
import { setEndDate } from '../state/timer-slice';
import { stepIndex } from '../state/wizard-steps';

const ENDED = 'This offer has ended: the session went to the next family in line. You can still book any free session.';

/**
 * A waitlist offer's link (/create-booking?offer=<reservationId>, issue 20): the offer is an
 * ordinary hold of this family, so the wizard opens at the Package step with it and its
 * countdown, as if the family had just picked that session.
 */
const openOffer = createAsyncThunk<string, string, { state: WizardRootState; rejectValue: string }>(
  'booking/openOffer',
  async (reservationId, { dispatch, rejectWithValue }) => {
    const hold = dispatch(bookingApi.endpoints.getReservation.initiate(reservationId, { forceRefetch: true }));
    const reservation = await hold.unwrap().catch(() => null);
    hold.unsubscribe();
    if (!reservation || reservation.status !== 'active') return rejectWithValue(ENDED);
    const places = dispatch(bookingApi.endpoints.getLocations.initiate());
    const slotQuery = dispatch(
      bookingApi.endpoints.getSlot.initiate({ locationId: reservation.locationId, slotId: reservation.slotId }),
    );
    const [locations, slot] = await Promise.all([
      places.unwrap().catch(() => null),
      slotQuery.unwrap().catch(() => null),
    ]);
    places.unsubscribe();
    slotQuery.unsubscribe();
    const location = locations?.find((l) => l.id === reservation.locationId);
    const slotType = location?.slotTypes.find((t) => t.id === slot?.slotTypeId);
    if (!location || !slotType || !slot)
      return rejectWithValue('We could not open this offer. Please try again from My Bookings.');
    dispatch(resetBooking());
    dispatch(setLocation(location));
    dispatch(toggleSlotType(slotType));
    dispatch(setReservationData(toReservationData(reservation)));
    dispatch(setEndDate(reservation.expiresAt));
    dispatch(goToStep(stepIndex('package')));
    track('waitlist_offer_accept', {
      reservation_id: reservation.id,
      location_id: location.id,
      location_name: location.name,
      slot_type: slotType.name,
      session_start: slot.startAt,
    });
    // Said when opened (issue 37 item 10): why the wizard opens at Package with a session held.
    return (
      `A session came free for you: ` +
      `${formatSessionTime(slot.startAt, location.timezone)} at ${location.name}. It is held for you: choose your ` +
      `package to book it.`
    );
  },
);

/**
 * Opens the offer named in the address once, then takes it out of the address. `opening` while
 * the address names one (the step history waits for it); `problem`, if it could not be opened.
 */
export function useOfferLink(): { problem: string | null; opened: string | null; opening: boolean } {
  const dispatch = useWizardDispatch();
  const [params, setParams] = useSearchParams();
  const offer = params.get('offer');
  const [problem, setProblem] = useState<string | null>(null);
  const [opened, setOpened] = useState<string | null>(null);
  useEffect(() => {
    if (!offer) return;
    let live = true;
    void dispatch(openOffer(offer)).then((result) => {
      if (!live) return;
      if (openOffer.rejected.match(result)) setProblem(result.payload ?? ENDED);
      else setOpened(result.payload);
      setParams({}, { replace: true });
    });
    return () => {
      live = false;
    };
  }, [offer, dispatch, setParams]);
  return { problem, opened, opening: offer !== null };
}
