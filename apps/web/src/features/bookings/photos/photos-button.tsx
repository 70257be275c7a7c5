import { lazy } from 'react';
import type { Booking } from '@kringle/contracts/bookings';
import { localDateOf } from '@kringle/contracts/dates';
import { LazyDialogButton } from '../../../components/ui/lazy-dialog-button';

/**
 * Photos exist only once the family has been at the set: a confirmed booking on or after its day.
 * The booking list does not say whether a booking has photos, so the gallery says "not yet" itself.
 */
export const mayHavePhotos = (b: Booking, now = new Date()) =>
  b.status === 'completed' && localDateOf(new Date(b.slot.startAt), b.location.timezone) <= localDateOf(now, b.location.timezone);

// The gallery (its grid, viewer and Radix Dialog) loads when a family opens it, not with My Bookings.
const loadGallery = () => import('./gallery-dialog');
const GalleryDialog = lazy(loadGallery);

/** "Photos" on a booking's card: opens the gallery, and takes focus back when it closes. */
export function PhotosButton({ booking }: { booking: Booking }) {
  return (
    <LazyDialogButton className="self-start px-4!" preload={loadGallery} dialog={(close) => <GalleryDialog booking={booking} onClose={close} />}>
      Photos
    </LazyDialogButton>
  );
}
