import { useAppSelector } from '../hooks';
import { useGetLocationsQuery } from '../../features/booking-wizard/api';
import { useBookingListInfiniteQuery } from '../../features/bookings/api';

export const NO_LOCATION = 'No location chosen yet';

/**
 * The profile menu's location label: the location being booked now, else the family's preferred
 * location, else the place of their next booking. Mounted only while the menu is open, so the two
 * lists are asked for when someone looks (and are usually cached by then).
 */
export function LocationLabel({ className }: { className?: string }) {
  const inWizard = useAppSelector((state) => state.booking.location);
  const preferredId = useAppSelector((state) => state.auth.user?.preferredLocationId ?? null);
  const locations = useGetLocationsQuery(undefined, { skip: !!inWizard || !preferredId });
  const upcoming = useBookingListInfiniteQuery('upcoming', { skip: !!inWizard });
  const preferred = preferredId ? locations.data?.find((l) => l.id === preferredId)?.name : undefined;
  const next = upcoming.data?.pages[0]?.items.find((b) => b.status !== 'cancelled')?.location.name;
  return (
    <p className={className} data-testid="profile-location">
      {inWizard?.name ?? preferred ?? next ?? NO_LOCATION}
    </p>
  );
}
