import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { AlertIcon, CheckIcon } from '../../components/ui/icons';
import { PlaceholderPage } from '../../components/ui/placeholder-page';

// Placeholders for the payment result pages (spec §2); the payments issue fills in the details.
const backToBookings = (
  <Link to="/bookings" className={buttonClasses('secondary')}>
    Go to my bookings
  </Link>
);

export function PaymentSuccessPage() {
  return (
    <PlaceholderPage title="Payment successful" icon={<CheckIcon className="text-pine-700" />} action={backToBookings}>
      <p>Thank you! Your session is confirmed and we have emailed your booking details.</p>
    </PlaceholderPage>
  );
}

export function PaymentErrorPage() {
  return (
    <PlaceholderPage title="Payment didn't go through" icon={<AlertIcon />} action={backToBookings}>
      <p>Your card was not charged. You can try again from My Bookings while your session is still held.</p>
    </PlaceholderPage>
  );
}
