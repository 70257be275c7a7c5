import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { CalendarIcon } from '../../components/ui/icons';
import { PlaceholderPage } from '../../components/ui/placeholder-page';

// Placeholder until the bookings issue adds the upcoming and past tabs.
export function BookingsPage() {
  return (
    <PlaceholderPage
      title="My Bookings"
      icon={<CalendarIcon />}
      action={
        <Link to="/create-booking" className={buttonClasses('primary')}>
          Book now
        </Link>
      }
    >
      <p>Your bookings will appear here. Upcoming sessions first, then the ones you have been to.</p>
    </PlaceholderPage>
  );
}
