import { useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { Booking } from '@kringle/contracts/bookings';
import { centsToDollars, formatAud } from '@kringle/contracts/money';
import { track } from '../../lib/analytics';
import type { ApiError } from '../../lib/api-error';
import type { RefundTo } from '@kringle/contracts/credit';
import { bookingsApi, isPhotoOrder, useCancelBookingMutation } from './api';
import type { CardAction } from './booking-card';
import { downloadFile } from '../../lib/download-file';
import { toastError, toastSuccess } from '../../lib/deferred-toast';

/** What the app does for the actions that belong to the booking wizard (features do not import each other). */
export interface WizardHandoff {
  onReschedule: (booking: Booking) => void | Promise<void>;
  onContinuePayment: (booking: Booking) => void | Promise<void>;
}

const message = (error: unknown, fallback: string) => (error as ApiError | undefined)?.data?.error ?? fallback;
const itemsOf = (b: Booking) =>
  b.items.map((i) => ({
    item_id: i.id,
    item_name: i.name,
    item_category: i.type,
    price: centsToDollars(i.unitPriceCents),
    quantity: i.quantity,
  }));

/** The card actions: cancel (after the dialog), downloads, and handing over to the wizard. */
export function useBookingActions(handoff: WizardHandoff) {
  const dispatch = useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>();
  const [busy, setBusy] = useState<{ bookingId: string; action: CardAction } | null>(null);
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  const [cancelBooking, cancelState] = useCancelBookingMutation();
  const justCancelled = useRef(false);

  const download = async (booking: Booking, action: CardAction, url: string, filename: string, what: string) => {
    setBusy({ bookingId: booking.id, action });
    try {
      await dispatch(downloadFile({ url, filename, what })).unwrap();
    } catch (error) {
      void toastError(message(error, `We could not download ${what}. Please try again.`));
    } finally {
      setBusy(null);
    }
  };

  /**
   * Receipts are per order: the booking's own paid (or refunded) order is looked up first (a photo order's are in the
   * gallery).
   */
  const receipt = async (booking: Booking, kind: 'payment' | 'refund') => {
    const action: CardAction = kind === 'payment' ? 'payment-receipt' : 'refund-receipt';
    setBusy({ bookingId: booking.id, action });
    const orders = await dispatch(bookingsApi.endpoints.bookingOrders.initiate(booking.id, { subscribe: false }));
    const order = orders.data?.find(
      (o) =>
        !isPhotoOrder(o) && (kind === 'payment' ? o.paidAt !== null || o.paymentStatus !== null : o.refundedCents > 0),
    );
    if (!order) {
      setBusy(null);
      void toastError(
        kind === 'payment'
          ? 'There is no tax invoice for this booking yet.'
          : 'There is no refund on this booking yet.',
      );
      return;
    }
    const url = `/orders/${booking.id}/orders/${order.id}/${kind}-receipt`;
    // Named as the PDF names itself (issue 37 item 10): a payment's is a tax invoice.
    await download(
      booking,
      action,
      url,
      kind === 'payment' ? `tax-invoice-${booking.reference}.pdf` : `refund-receipt-${booking.reference}.pdf`,
      kind === 'payment' ? 'the tax invoice' : 'the refund receipt',
    );
  };

  const run = async (action: CardAction, booking: Booking, work: () => void | Promise<void>) => {
    setBusy({ bookingId: booking.id, action });
    try {
      await work();
    } finally {
      setBusy(null);
    }
  };

  const onAction = (action: CardAction, booking: Booking) => {
    switch (action) {
      case 'cancel':
        track('package_cancel', {
          booking_id: booking.id,
          reference: booking.reference,
          refundable: centsToDollars(booking.refundableCents),
        });
        return setCancelling(booking);
      case 'reschedule':
        track('reschedule', {
          booking_id: booking.id,
          reference: booking.reference,
          reschedule_count: booking.rescheduleCount,
        });
        track('package_reschedule', {
          booking_id: booking.id,
          items: JSON.stringify(itemsOf(booking)),
          value: centsToDollars(booking.amountCents),
          currency: 'AUD',
        });
        return void run(action, booking, () => handoff.onReschedule(booking));
      case 'continue':
        track('booking continue', { booking_id: booking.id, reference: booking.reference, status: booking.status });
        return void run(action, booking, () => handoff.onContinuePayment(booking));
      case 'calendar':
        return void download(
          booking,
          action,
          `/bookings/${booking.id}/calendar.ics`,
          `santa-photos-${booking.reference}.ics`,
          'the calendar file',
        );
      case 'payment-receipt':
        return void receipt(booking, 'payment');
      case 'refund-receipt':
        return void receipt(booking, 'refund');
    }
  };

  const confirmCancel = async (refundTo: RefundTo = 'card') => {
    if (!cancelling) return;
    const booking = cancelling;
    const result = await cancelBooking({ id: booking.id, ...(refundTo === 'credit' ? { refundTo } : {}) });
    if ('error' in result) {
      void toastError(message(result.error, 'We could not cancel this booking. Please try again.'));
      setCancelling(null);
      return;
    }
    const { refund } = result.data;
    track('booking cancel', {
      booking_id: booking.id,
      reference: booking.reference,
      refund: centsToDollars(refund?.amountCents ?? 0),
      currency: 'AUD',
    });
    const cancelled = `Booking ${booking.reference} is cancelled.`;
    const refunded = refund && refund.amountCents > 0 ? formatAud(refund.amountCents) : null;
    void toastSuccess(
      !refunded
        ? cancelled
        : refund?.refundTo === 'credit'
          ? `${cancelled} ${refunded} is now account credit.`
          : refund?.refundTo === 'voucher'
            ? `${cancelled} ${refunded} is back on your gift voucher.`
            : `${cancelled} ${refunded} is on its way back to your card (allow 5 to 10 business days).`,
    );
    justCancelled.current = true;
    setCancelling(null);
  };

  /** The cancelled card leaves the list, so focus goes to the open tab instead of its vanished button. */
  const afterCancelClosed = (event: Event) => {
    if (!justCancelled.current) return;
    justCancelled.current = false;
    const tab = document.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
    if (!tab) return;
    event.preventDefault();
    tab.focus();
  };

  return {
    afterCancelClosed,
    busy,
    onAction,
    cancelling,
    cancelBusy: cancelState.isLoading,
    closeCancel: () => setCancelling(null),
    confirmCancel: (refundTo: RefundTo) => void confirmCancel(refundTo),
  };
}
