import * as Dialog from '@radix-ui/react-dialog';
import type { Booking } from '@kringle/contracts/bookings';
import { formatSessionTime } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import { Button } from '../../components/ui/button';
import { CONFIRM_DIALOG, focusSafeChoice } from '../../components/ui/confirm-dialog';

export type ClosureAnswer = 'accept' | 'refund';
type Offer = NonNullable<NonNullable<Booking['closure']>['offer']>;

/**
 * The step between a tap on the closure offer and the answer (issue 53 item 8): exactly what will
 * happen, the new time for a move and the amount for a refund (the API's `refundCents`: what is
 * left to refund on the order), before anything is sent. Focus starts on "Not yet".
 */
export function ClosureConfirm({
  booking,
  offer,
  asking,
  busy,
  onAnswer,
  onClose,
}: {
  booking: Booking;
  offer: Offer;
  asking: ClosureAnswer | null;
  busy: boolean;
  onAnswer: (answer: ClosureAnswer) => void;
  onClose: () => void;
}) {
  const tz = booking.location.timezone;
  const from = formatSessionTime(booking.slot.startAt, tz);
  const to = formatSessionTime(offer.startAt, tz);
  const amount = formatAud(offer.refundCents);
  const move = asking === 'accept';
  return (
    <Dialog.Root open={asking !== null} onOpenChange={(open) => !open && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={CONFIRM_DIALOG.overlay} />
        <Dialog.Content role="alertdialog" onOpenAutoFocus={focusSafeChoice} className={CONFIRM_DIALOG.content}>
          <Dialog.Title className={CONFIRM_DIALOG.title}>{move ? `Move to ${to}?` : `Refund ${amount}?`}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="flex flex-col gap-3 text-ink-700" data-testid="closure-confirm-words">
              {move ? (
                <>
                  <p>
                    Your booking <span className="font-mono">{booking.reference}</span> moves from{' '}
                    <span className="whitespace-nowrap">{from}</span> (closed) to{' '}
                    <strong className="whitespace-nowrap text-ink-900">{to}</strong> at {offer.locationName}.
                  </p>
                  <p className="rounded-xl bg-pine-50 p-3 font-semibold text-pine-800">
                    Nothing is charged or refunded, and it does not count as one of your reschedules.
                  </p>
                </>
              ) : (
                <>
                  <p>
                    Your booking <span className="font-mono">{booking.reference}</span> for{' '}
                    <span className="whitespace-nowrap">{from}</span> is cancelled, and we let go of the session held
                    for you on <span className="whitespace-nowrap">{to}</span>.
                  </p>
                  <p className="rounded-xl bg-pine-50 p-3 font-semibold text-pine-800">
                    {amount} goes back to the card you paid with, usually within 5 to 10 business days.
                  </p>
                </>
              )}
              <p className="text-sm">This cannot be undone.</p>
            </div>
          </Dialog.Description>
          <div className={CONFIRM_DIALOG.actions}>
            <Dialog.Close asChild>
              <Button variant="secondary" data-autofocus disabled={busy}>
                Not yet
              </Button>
            </Dialog.Close>
            <Button disabled={busy} aria-busy={busy} onClick={() => asking && onAnswer(asking)}>
              {busy ? (move ? 'Moving…' : 'Refunding…') : move ? 'Yes, move my booking' : `Yes, refund ${amount}`}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
