import { useCallback, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  goToStep,
  resetBooking,
  setCheckoutData,
  setReservationData,
} from '../features/booking-wizard/state/booking-slice';
import { setEndDate, stopTimer } from '../features/booking-wizard/state/timer-slice';
import { stepIndex } from '../features/booking-wizard/state/wizard-steps';
import { PaymentErrorPage, type RetryPayment } from '../features/payments/error-page';
import { PaymentSuccessPage } from '../features/payments/success-page';
import { useAppDispatch, useAppSelector } from './hooks';

/**
 * The payment result pages joined to the booking wizard (features do not import each other):
 * a confirmed booking clears the wizard that made it; a retry goes back to its Payment step.
 */
export function SuccessRoute() {
  const dispatch = useAppDispatch();
  const wizardBookingId = useAppSelector((s) => s.booking.checkoutData?.bookingId);
  const promoCode = useAppSelector((s) => s.booking.promo?.code);
  const [params] = useSearchParams();
  const onConfirmed = useCallback(
    (bookingId: string) => {
      if (wizardBookingId !== bookingId) return;
      dispatch(resetBooking());
      dispatch(stopTimer());
    },
    [dispatch, wizardBookingId],
  );
  // The booking does not name its promo code: the wizard that made it does (GA4's coupon on purchase).
  const ours = wizardBookingId === params.get('bookingId');
  const coupon = ours ? promoCode : undefined;
  // Nor what gift vouchers paid of it: kept from the wizard as the page opens, as confirming clears the wizard.
  const paidByVouchers = useAppSelector((s) =>
    (s.booking.checkoutData?.voucherParts ?? []).reduce((n, p) => n + p.cents, 0),
  );
  const [voucherCents] = useState(() => (ours ? paidByVouchers : 0));
  return <PaymentSuccessPage onConfirmed={onConfirmed} coupon={coupon} voucherCents={voucherCents} />;
}

export function ErrorRoute() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const booking = useAppSelector((s) => s.booking);

  const onRetry = (retry: RetryPayment) => {
    const { checkoutData, reservationData } = booking;
    // Paying again needs the wizard that made this booking; from elsewhere, My Bookings offers it.
    if (checkoutData?.bookingId !== retry.bookingId || !reservationData) return void navigate('/bookings');
    dispatch(setCheckoutData({ ...checkoutData, client_secret: retry.client_secret }));
    dispatch(setReservationData({ ...reservationData, expiresAt: retry.expiresAt }));
    dispatch(setEndDate(retry.expiresAt));
    dispatch(goToStep(stepIndex('payment')));
    navigate('/create-booking');
  };
  const onStartAgain = () => {
    dispatch(resetBooking());
    dispatch(stopTimer());
    navigate('/create-booking');
  };
  return <PaymentErrorPage onRetry={onRetry} onStartAgain={onStartAgain} />;
}
