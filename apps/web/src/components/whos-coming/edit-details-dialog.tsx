import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { Booking } from '@kringle/contracts/bookings';
import { Button } from '../ui/button';

/** The family may change who's coming until the session starts (the API answers DETAILS_LOCKED after). */
export const canEditDetails = (b: Booking, now = Date.now()) => b.status !== 'cancelled' && Date.parse(b.slot.startAt) > now;

// The form, its rules and react-hook-form load when a family opens it, not with My Bookings (decision 0034).
const loadSheet = () => import('./edit-details-sheet');
const EditDetailsSheet = lazy(loadSheet);

/** "Edit who's coming" on a booking's card: opens the sheet, and takes focus back when it closes. */
export function EditDetailsButton({ booking }: { booking: Booking }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // Back to the button once the sheet has gone (its focus trap released it on unmount).
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return (
    <>
      <Button
        ref={button}
        variant="secondary"
        className="px-4! text-sm!"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void loadSheet()}
        onFocus={() => void loadSheet()}
        onClick={() => setOpen(true)}
      >
        {booking.details ? "Edit who's coming" : "Add who's coming"}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <EditDetailsSheet booking={booking} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
