import { lazy } from 'react';
import type { Booking } from '@kringle/contracts/bookings';
import { localDateOf } from '@kringle/contracts/dates';
import { LazyDialogButton } from '../../../components/ui/lazy-dialog-button';

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

// The gallery (its grid, viewer and Radix Dialog) loads when a family opens it, not with My Bookings.
const loadGallery = () => import('./gallery-dialog');
const GalleryDialog = lazy(loadGallery);

/** "5 photos" (or "Photos" before any) on a booking's card: opens the gallery, and takes focus back when it closes. */
export function PhotosButton({ booking }: { booking: Booking }) {
  return (
    <LazyDialogButton
      className="self-start px-4!"
      preload={loadGallery}
      dialog={(close) => <GalleryDialog booking={booking} onClose={close} />}
    >
      {photosLabel(booking)}
    </LazyDialogButton>
  );
}
