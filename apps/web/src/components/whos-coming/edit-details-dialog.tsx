import { lazy } from 'react';
import type { Booking } from '@kringle/contracts/bookings';
import { LazyDialogButton } from '../ui/lazy-dialog-button';

/** The family may change who's coming until the session starts (the API answers DETAILS_LOCKED after). */
export const canEditDetails = (b: Booking, now = Date.now()) =>
  b.status !== 'cancelled' && Date.parse(b.slot.startAt) > now;

// The form, its rules and react-hook-form load when a family opens it, not with My Bookings (decision 0034).
const loadSheet = () => import('./edit-details-sheet');
const EditDetailsSheet = lazy(loadSheet);

/** "Edit who's coming" on a booking's card: opens the sheet, and takes focus back when it closes. */
export function EditDetailsButton({ booking }: { booking: Booking }) {
  return (
    <LazyDialogButton
      className="shrink-0 px-4! text-sm!"
      preload={loadSheet}
      dialog={(close) => <EditDetailsSheet booking={booking} onClose={close} />}
    >
      {booking.details ? "Edit who's coming" : "Add who's coming"}
    </LazyDialogButton>
  );
}
