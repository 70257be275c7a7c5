import { useGetReservationQuery } from '../api';
import { useWizardSelector } from '../state/booking-hooks';

/**
 * True when the held session has been checked out into the stored order. checkoutData alone is
 * not enough: after going back and picking another session, it belongs to the old hold.
 */
export function useOrderPlaced(): boolean {
  const checkout = useWizardSelector((s) => s.booking.checkoutData);
  const holdId = useWizardSelector((s) => s.booking.reservationData?.holdId);
  const reservation = useGetReservationQuery(holdId ?? '', { skip: !holdId || !checkout });
  return Boolean(checkout && reservation.data?.id === holdId && reservation.data?.bookingId === checkout.bookingId);
}
