import type { Booking } from '@kringle/contracts/bookings';
import { localDateOf } from '@kringle/contracts/dates';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { type FocusState, photosPath } from './photos-route';

/**
 * Photos exist only once the family has been at the set: a confirmed booking on or after its day
 * (its gallery says "not yet" until they are uploaded), or any booking whose gallery has photos.
 */
export const mayHavePhotos = (b: Booking, now = new Date()) =>
  b.photoCount > 0 ||
  (b.status === 'completed' &&
    localDateOf(new Date(b.slot.startAt), b.location.timezone) <= localDateOf(now, b.location.timezone));

/** The button's words: how many photos there are, once there are any. */
export const photosLabel = (b: Pick<Booking, 'photoCount'>) =>
  b.photoCount > 0 ? `${b.photoCount} photo${b.photoCount === 1 ? '' : 's'}` : 'Photos';

/**
 * "5 photos" (or "Photos" before any) on a booking's card: opens the gallery at its own address,
 * /bookings/:id/photos, a payment page (its card form for more photos runs under the payment pages' CSP: the root
 * loads it as a document of its own, issue 51). Closing it brings focus back here, however late the list draws it.
 */
export function PhotosButton({ booking }: { booking: Booking }) {
  const navigate = useNavigate();
  // The tab (?tab=past) goes with it, so the list under the gallery, and the one it closes to, is the same.
  const { search, state } = useLocation();
  const ref = useRef<HTMLButtonElement>(null);
  const focusHere = (state as Partial<FocusState> | null)?.focusPhotosFor === booking.id;
  useEffect(() => {
    if (focusHere) ref.current?.focus();
  }, [focusHere]);
  return (
    <Button
      ref={ref}
      variant="secondary"
      className="self-start px-4!"
      aria-haspopup="dialog"
      onClick={() => void navigate({ pathname: photosPath(booking.id), search })}
    >
      {photosLabel(booking)}
    </Button>
  );
}
