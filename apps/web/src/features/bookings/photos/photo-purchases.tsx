import { useEffect, useId } from 'react';
import type { Booking } from '@kringle/contracts/bookings';
import { formatAud } from '@kringle/contracts/money';
import { Button } from '../../../components/ui/button';
import { isPhotoOrder, useBookingOrdersQuery } from '../api';

const dayWords = (at: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone }).format(new Date(at));

/**
 * The photos a family bought (decision 0065), each order with its tax invoice, and its refund
 * receipt when the money went back: the booking card's receipts are the booking's own order, so a
 * photo order's are here, where they were bought, for as long as the gallery is there (decision 0070).
 * The orders are the booking card's query (cached), so opening the gallery asks nothing more.
 */
export function PhotoPurchases({
  booking,
  justBought,
  downloading,
  onDownload,
}: {
  booking: Booking;
  /** An order paid in this dialog: asked for again until the list has it. */
  justBought: string | null;
  downloading: string | null;
  onDownload: (key: string, url: string, filename: string, what: string) => void;
}) {
  const heading = useId();
  const orders = useBookingOrdersQuery(booking.id);
  const bought = (orders.data ?? []).filter((o) => isPhotoOrder(o) && o.paidAt !== null);
  const known = !justBought || bought.some((o) => o.id === justBought);
  const { refetch } = orders;
  useEffect(() => {
    if (!known) void refetch();
  }, [known, refetch]);
  if (bought.length === 0) return null;

  const tz = booking.location.timezone;
  const receipt = (orderId: string, kind: 'payment' | 'refund', label: string, name: string) => {
    const key = `${kind}-${orderId}`;
    const file =
      `${kind === 'payment' ? 'tax-invoice' : 'refund-receipt'}-${booking.reference}-photos-` +
      `${orderId.slice(0, 6)}.pdf`;
    return (
      <Button
        variant="secondary"
        className="px-3! text-sm!"
        disabled={downloading !== null}
        aria-busy={downloading === key}
        aria-label={name}
        onClick={() =>
          onDownload(
            key,
            `/orders/${booking.id}/orders/${orderId}/${kind}-receipt`,
            file,
            kind === 'payment' ? 'the tax invoice' : 'the refund receipt',
          )
        }
      >
        {downloading === key ? 'Downloading…' : label}
      </Button>
    );
  };
  return (
    <section aria-labelledby={heading} className="flex flex-col gap-2 rounded-xl border border-cream-300 p-3">
      <h3 id={heading} className="font-semibold text-ink-900">
        Photos you bought
      </h3>
      <ul className="flex flex-col gap-2">
        {bought.map((o) => {
          const count = o.items.reduce((n, i) => n + i.quantity, 0);
          const day = dayWords(o.paidAt!, tz);
          const what = `${count} photo${count === 1 ? '' : 's'} on ${day}`;
          return (
            <li key={o.id} className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-sm text-ink-900">
                {what}, {formatAud(o.amountCents)}
                {o.refundedCents > 0 && `, ${formatAud(o.refundedCents)} refunded`}
              </p>
              <div className="flex flex-wrap gap-2">
                {receipt(o.id, 'payment', 'Tax invoice', `Tax invoice for ${what}`)}
                {o.refundedCents > 0 && receipt(o.id, 'refund', 'Refund receipt', `Refund receipt for ${what}`)}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
