import { useAppSelector } from '../hooks';
import { useGetLocationsQuery } from '../../features/booking-wizard/api';
import { useBookingListInfiniteQuery } from '../../features/bookings/api';

export const NO_LOCATION = 'No location chosen yet';

/**
 * The profile menu's location label: the location being booked now, else the family's preferred
 * location, else the place of their next booking, else of their latest one (a cancelled or past
 * booking still says where they go). Mounted only while the menu is open, so the lists are asked
 * for when someone looks (and are usually cached by then).
 */
export function LocationLabel({ className }: { className?: string }) {
  const inWizard = useAppSelector((state) => state.booking.location);
  const preferredId = useAppSelector((state) => state.auth.user?.preferredLocationId ?? null);
  const locations = useGetLocationsQuery(undefined, { skip: !!inWizard || !preferredId });
  const upcoming = useBookingListInfiniteQuery('upcoming', { skip: !!inWizard });
  const preferred = preferredId ? locations.data?.find((l) => l.id === preferredId)?.name : undefined;
  const coming = upcoming.data?.pages[0]?.items ?? [];
  const next = (coming.find((b) => b.status !== 'cancelled') ?? coming[0])?.location.name;
  const past = useBookingListInfiniteQuery('past', { skip: !!inWizard || !upcoming.isSuccess || coming.length > 0 });
  const latest = past.data?.pages[0]?.items[0]?.location.name;
  return (
    <p className={className} data-testid="profile-location">
      {inWizard?.name ?? preferred ?? next ?? latest ?? NO_LOCATION}
    </p>
  );
}
