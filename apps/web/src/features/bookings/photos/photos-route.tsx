import { lazy, Suspense, useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import type { ApiError } from '../../../lib/api-error';
import { toastError } from '../../../lib/deferred-toast';
import { useBookingQuery } from '../api';

/** The history state closing the gallery leaves, naming the card whose Photos button takes focus. */
export interface FocusState {
  focusPhotosFor: string;
}

export const photosPath = (bookingId: string) => `/bookings/${encodeURIComponent(bookingId)}/photos`;

// The gallery (its grid, viewer and Radix Dialog) loads when a family opens it, not with My Bookings.
const GalleryDialog = lazy(() => import('./gallery-dialog'));

/** The booking whose gallery the address names (/bookings/:id/photos), or null on My Bookings itself. */
export function usePhotosBookingId(): string | null {
  const { id } = useParams<{ id?: string }>();
  const { pathname } = useLocation();
  return id && pathname.endsWith('/photos') ? id : null;
}

/**
 * The gallery over My Bookings at /bookings/:id/photos. Closing it goes back to /bookings (a document of its own when
 * analytics are on: payment-page-entry.ts) and puts focus on the card's Photos button.
 */
export function PhotosRoute({ bookingId }: { bookingId: string }) {
  const navigate = useNavigate();
  const { search } = useLocation();
  const booking = useBookingQuery(bookingId);
  // The card's button takes focus when it is drawn (photos-button.tsx): after a purchase the list may draw it again.
  const close = () =>
    void navigate({ pathname: '/bookings', search }, { state: { focusPhotosFor: bookingId } satisfies FocusState });
  const failed = booking.isError;
  useEffect(() => {
    if (!failed) return;
    const data = (booking.error as ApiError | undefined)?.data;
    void toastError(data?.error ?? 'We could not open the photos of this booking. Please try again.');
    void navigate({ pathname: '/bookings', search }, { replace: true });
  }, [failed, booking.error, navigate, search]);
  if (!booking.data) return null;
  return (
    <Suspense fallback={null}>
      <GalleryDialog booking={booking.data} onClose={close} />
    </Suspense>
  );
}
