import { formatClockTime } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import { PAID_WITH_LABELS, type StaffBooking } from '@kringle/contracts/staff';
import { useEffect, useRef } from 'react';
import { Button } from '../../components/ui/button';
import { familyName } from '../parts/booking-card';
import { downloadFile } from '../session/staff-client';

/** A sale's confirmation, and its tax invoice to print. */
export function WalkInSold({
  sold,
  timezone,
  onReceiptFailed,
}: {
  sold: StaffBooking;
  timezone: string;
  onReceiptFailed: () => void;
}) {
  const confirmation = useRef<HTMLParagraphElement>(null);
  // The sale is confirmed at the top while the button is at the bottom: take the view and the
  // focus there, so the staff member sees it (not just a form emptying) and a screen reader reads it.
  useEffect(() => {
    confirmation.current?.scrollIntoView?.({ block: 'center' });
    confirmation.current?.focus({ preventScroll: true });
  }, [sold]);
  return (
    <>
      <p
        ref={confirmation}
        tabIndex={-1}
        role="status"
        className={
          'scroll-mt-4 rounded-xl bg-pine-50 px-4 py-3 font-semibold text-pine-800 ring-1 ring-pine-700 ' +
          'focus:outline-2 focus:outline-offset-2 focus:outline-pine-700'
        }
      >
        Sold: {sold.reference} for {familyName(sold.customer).fullname}, {sold.slotType.name} at{' '}
        {formatClockTime(sold.slot.startAt, timezone)} ({formatAud(sold.amountCents)}, paid in store
        {sold.paidWith ? ` by ${sold.paidWith === 'eftpos' ? PAID_WITH_LABELS.eftpos : sold.paidWith}` : ''})
        {sold.attendance === 'checked_in' ? ', checked in: their session is on now' : ''}
        {sold.customer.email ? `. Receipt sent to ${sold.customer.email}.` : '.'}
      </p>
      {/* Without an e-mail this is the family's only receipt; with one, paper if they ask. */}
      <Button
        variant="secondary"
        onClick={() =>
          void downloadFile(
            `/staff/bookings/${sold.id}/receipt`,
            'application/pdf',
            `tax-invoice-${sold.reference}.pdf`,
          ).catch(onReceiptFailed)
        }
      >
        Tax invoice (PDF) for {sold.reference}
      </Button>
    </>
  );
}
