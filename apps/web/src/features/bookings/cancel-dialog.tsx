import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState } from 'react';
import type { RefundTo } from '@kringle/contracts/credit';
import type { Booking } from '@kringle/contracts/bookings';
import { formatSessionTime } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import { Button } from '../../components/ui/button';
import { CONFIRM_DIALOG, focusSafeChoice } from '../../components/ui/confirm-dialog';

const UNPAID = new Set<Booking['status']>(['payment_pending', 'payment_failed']);

/**
 * What cancelling this booking gives back, said before the family confirms. The figure is the
 * API's `refundableCents` for this booking (the shared policy rules), never worked out here.
 */
export function refundWording(
  booking: Pick<Booking, 'status' | 'refundableCents'>,
  refundTo: RefundTo = 'card',
): string {
  if (UNPAID.has(booking.status))
    return 'You have not been charged for this booking, so there is nothing to refund. Your session will be released.';
  if (booking.refundableCents > 0 && refundTo === 'credit')
    return `${formatAud(booking.refundableCents)} will be added to your account credit at once, for a later booking.`;
  if (booking.refundableCents > 0)
    return `You will be refunded ${formatAud(booking.refundableCents)} to the card you paid with.`;
  return 'This booking will not be refunded: it is too close to the session for a refund.';
}

const REFUND_CHOICES: { value: RefundTo; label: string; hint: string }[] = [
  { value: 'card', label: 'Back to my card', hint: 'Usually 5 to 10 business days.' },
  {
    value: 'credit',
    label: 'Keep it as account credit',
    hint: 'Ready at once for another booking; lasts three years.',
  },
];

export interface CancelDialogProps {
  booking: Booking;
  open: boolean;
  busy: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: (refundTo: RefundTo) => void;
  /** Where focus goes on close; by default back to the button that opened the dialog. */
  onCloseAutoFocus?: (event: Event) => void;
}

/** Confirms a cancellation, stating the refund first. Focus starts on the safe choice. */
export function CancelDialog({ booking, open, busy, onOpenChange, onConfirm, onCloseAutoFocus }: CancelDialogProps) {
  const refunded = booking.refundableCents > 0 && !UNPAID.has(booking.status);
  const [refundTo, setRefundTo] = useState<RefundTo>('card');
  const name = useId();
  const { slotType, location } = booking;
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className={CONFIRM_DIALOG.overlay} />
        <Dialog.Content
          role="alertdialog"
          onOpenAutoFocus={focusSafeChoice}
          onCloseAutoFocus={onCloseAutoFocus}
          className={CONFIRM_DIALOG.content}
        >
          <Dialog.Title className={CONFIRM_DIALOG.title}>Cancel this booking?</Dialog.Title>
          <Dialog.Description asChild>
            <div className="flex flex-col gap-3 text-ink-700">
              <p>
                <span className="font-semibold text-ink-900">{slotType.name}</span> at {location.name} on{' '}
                <span className="whitespace-nowrap">
                  {formatSessionTime(booking.slot.startAt, booking.location.timezone)}
                </span>{' '}
                (reference <span className="font-mono">{booking.reference}</span>).
              </p>
              <p
                data-testid="refund-wording"
                className={
                  refunded
                    ? 'rounded-xl bg-pine-50 p-3 font-semibold text-pine-800'
                    : 'rounded-xl bg-cream-200 p-3 font-semibold text-ink-900'
                }
              >
                {refundWording(booking, refundTo)}
              </p>
              <p className="text-sm">Once cancelled, the session goes back on sale and this cannot be undone.</p>
            </div>
          </Dialog.Description>
          {refunded && (
            <fieldset className="mt-3 flex flex-col gap-1" disabled={busy}>
              <legend className="mb-1 font-semibold text-ink-900">Where should the refund go?</legend>
              {REFUND_CHOICES.map((choice) => (
                <label key={choice.value} className="flex min-h-11 cursor-pointer items-start gap-3 text-ink-900">
                  <input
                    type="radio"
                    name={name}
                    className="mt-1 size-5 shrink-0 accent-festive-700"
                    checked={refundTo === choice.value}
                    onChange={() => setRefundTo(choice.value)}
                  />
                  <span>
                    {choice.label}
                    <span className="block text-sm text-ink-700">{choice.hint}</span>
                  </span>
                </label>
              ))}
            </fieldset>
          )}
          <div className={CONFIRM_DIALOG.actions}>
            <Dialog.Close asChild>
              <Button variant="secondary" data-autofocus disabled={busy}>
                Keep booking
              </Button>
            </Dialog.Close>
            <Button onClick={() => onConfirm(refunded ? refundTo : 'card')} disabled={busy} aria-busy={busy}>
              {busy ? 'Cancelling…' : 'Cancel booking'}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
