import { useEffect, useRef, useState } from 'react';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch } from 'react-redux';
import { Link, Navigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { Booking } from '@kringle/contracts/bookings';
import { centsToDollars, CURRENCY } from '@kringle/contracts/money';
import { Button, buttonClasses } from '../../components/ui/button';
import { AlertIcon, CalendarIcon, CheckIcon } from '../../components/ui/icons';
import { track } from '../../lib/analytics';
import { downloadFile } from '../../lib/download-file';
import { useGetBookingQuery } from '../../lib/booking-api';
import { usePaidBookingOrdersQuery } from './api';
import { CheckInQr } from '../../components/whos-coming/check-in-qr';
import { DetailsSummary } from '../../components/whos-coming/details-summary';
import { WalletButtons } from '../../components/wallet/wallet-buttons';
import { BookingSummary } from './booking-summary';
import { ResultFrame } from './result-frame';

/** How often /success asks whether the payment webhook has confirmed the booking. */
const CONFIRM_POLL_MS = 1500;
/** After this long still unconfirmed, say so calmly (and keep checking). */
const SLOW_AFTER_MS = 20_000;

/** purchase and add_booking, once per booking even across reloads. */
function recordPurchase(booking: Booking, coupon?: string) {
  const key = `kringle:purchase:${booking.id}`;
  try {
    if (window.sessionStorage.getItem(key)) return;
    window.sessionStorage.setItem(key, '1');
  } catch {
    // Storage unavailable: record anyway.
  }
  track('purchase', {
    currency: CURRENCY,
    value: centsToDollars(booking.amountCents),
    transaction_id: booking.reference,
    ...(coupon ? { coupon } : {}),
    items: booking.items.map((i) => ({
      item_id: i.id,
      item_name: i.name,
      item_category: i.type,
      price: centsToDollars(i.unitPriceCents),
      quantity: i.quantity,
    })),
  });
  track('add_booking', {
    booking_id: booking.id,
    reference: booking.reference,
    location_id: booking.location.id,
    location_name: booking.location.name,
    slot_type: booking.slotType.name,
  });
}

/**
 * /success: where card payments (and the bank's 3-D Secure page) land. The booking is confirmed by
 * Stripe's webhook a moment after payment, so this page waits for it, then shows the booking.
 * `onConfirmed` lets the app clear the wizard that made this booking. A booking that a promo code paid
 * in full is confirmed at checkout and shown here at once.
 */
export function PaymentSuccessPage({
  onConfirmed,
  coupon,
  voucherCents = 0,
}: {
  onConfirmed?: (bookingId: string) => void;
  /** The promo code the order was priced with, when the wizard that made it knows it. */
  coupon?: string;
  /** What gift vouchers paid of it, when the wizard that made it knows (the booking does not say). */
  voucherCents?: number;
}) {
  const [params] = useSearchParams();
  const dispatch = useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>();
  // The API's calendar file: the session in the location's own time zone.
  const addToCalendar = async (b: Booking) => {
    const saved = await dispatch(
      downloadFile({
        url: `/bookings/${b.id}/calendar.ics`,
        filename: `santa-photos-${b.reference}.ics`,
        what: 'the calendar file',
      }),
    );
    if (downloadFile.rejected.match(saved))
      toast.error(saved.payload?.data.error ?? 'We could not download the calendar file. Please try again.');
  };
  const bookingId = params.get('bookingId') ?? '';
  const failedAtBank = params.get('redirect_status') === 'failed';
  const [slow, setSlow] = useState(false);
  const [settled, setSettled] = useState(false);
  const booking = useGetBookingQuery(bookingId, {
    skip: !bookingId || failedAtBank,
    pollingInterval: settled ? 0 : CONFIRM_POLL_MS,
  });
  const status = booking.data?.status;
  const orders = usePaidBookingOrdersQuery(bookingId, { skip: status !== 'completed' });
  const paidOrder = orders.data?.find((o) => o.paidAt !== null);
  const downloadReceipt = async (b: Booking, orderId: string) => {
    const saved = await dispatch(
      downloadFile({
        url: `/orders/${b.id}/orders/${orderId}/payment-receipt`,
        filename: `tax-invoice-${b.reference}.pdf`,
        what: 'the tax invoice',
      }),
    );
    if (downloadFile.rejected.match(saved))
      toast.error(saved.payload?.data.error ?? 'We could not download the receipt. Please try again.');
  };
  const done = useRef(false);

  // payment_failed is not final here: an earlier card may have failed and this payment's webhook not arrived yet.
  if ((status === 'completed' || status === 'cancelled') && !settled) setSettled(true);

  useEffect(() => {
    const id = window.setTimeout(() => setSlow(true), SLOW_AFTER_MS);
    return () => window.clearTimeout(id);
  }, []);

  useEffect(() => {
    if (status !== 'completed' || !booking.data || done.current) return;
    done.current = true;
    recordPurchase(booking.data, coupon);
    onConfirmed?.(booking.data.id);
  }, [status, booking.data, onConfirmed, coupon]);

  if (!bookingId) {
    return (
      <ResultFrame title="Nothing to show here" icon={<AlertIcon />} tone="calm" actions={<MyBookingsLink />}>
        <p>This page shows a booking after payment. Your bookings are all in My Bookings.</p>
      </ResultFrame>
    );
  }
  if (failedAtBank) return <Navigate to={`/error?bookingId=${encodeURIComponent(bookingId)}`} replace />;

  if (booking.isError && !booking.data) {
    return (
      <ResultFrame
        title="We couldn't load your booking"
        icon={<AlertIcon />}
        tone="calm"
        actions={<Button onClick={() => void booking.refetch()}>Try again</Button>}
      >
        <p>
          Your payment may still have gone through. Please check your connection and try again, or look in My Bookings.
        </p>
      </ResultFrame>
    );
  }
  if (status === 'cancelled' && booking.data) {
    return (
      <ResultFrame
        title="This booking was cancelled"
        icon={<AlertIcon />}
        tone="calm"
        actions={<MyBookingsLink primary />}
      >
        <p>
          Booking {booking.data.reference} is cancelled. If you paid for it, the full amount is being refunded to your
          card and we have emailed you the details.
        </p>
      </ResultFrame>
    );
  }
  if (status === 'completed' && booking.data) {
    const data = booking.data;
    return (
      <ResultFrame
        title="You're booked in to see Santa!"
        icon={<CheckIcon />}
        tone="good"
        actions={
          <>
            <Button variant="secondary" onClick={() => void addToCalendar(data)}>
              <CalendarIcon aria-hidden="true" className="size-5" />
              Add to calendar
            </Button>
            {paidOrder && (
              <Button variant="secondary" onClick={() => void downloadReceipt(data, paidOrder.id)}>
                Tax invoice
              </Button>
            )}
            <MyBookingsLink primary />
          </>
        }
      >
        <p>
          Thank you! {data.amountCents > 0 ? 'Your payment went through' : 'There was nothing left to pay'} and your
          session is confirmed. We have emailed the details to you.
        </p>
        <BookingSummary booking={data} voucherCents={voucherCents} />
        <p className="font-semibold text-ink-900">Please arrive 10 minutes early.</p>
        <p>
          <a
            href={mapLink(data)}
            target="_blank"
            rel="noopener noreferrer"
            className="font-semibold text-festive-700 underline underline-offset-4"
          >
            Find {data.location.name} on the map<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </p>
        {data.checkInCode && <CheckInQr code={data.checkInCode} reference={data.reference} />}
        {/* In the phone's wallet, the code opens without signal (a set is often in a basement). */}
        {data.checkInCode && <WalletButtons booking={data} className="justify-center" />}
        <DetailsSummary details={data.details} />
      </ResultFrame>
    );
  }
  return (
    <ResultFrame
      title="Confirming your booking…"
      icon={<span className="block size-8 animate-spin rounded-full border-4 border-pine-700 border-t-transparent" />}
      tone="calm"
    >
      <p role="status">
        Your payment is being confirmed. This usually takes a few seconds; please keep this page open.
      </p>
      {slow && (
        <p>
          This is taking longer than usual. You don't need to pay again: we will email you as soon as it is confirmed,
          and it will show in My Bookings.
        </p>
      )}
    </ResultFrame>
  );
}

/** A map search for the place: a plain link, so nothing is fetched to draw the page. */
const mapLink = (b: Booking) =>
  `https://www.openstreetmap.org/search?query=${encodeURIComponent(`${b.location.name}, ${b.location.address}`)}`;

function MyBookingsLink({ primary }: { primary?: boolean }) {
  return (
    <Link to="/bookings" className={buttonClasses(primary ? 'primary' : 'secondary')}>
      Go to My Bookings
    </Link>
  );
}
