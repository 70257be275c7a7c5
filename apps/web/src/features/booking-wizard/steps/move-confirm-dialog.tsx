import * as Dialog from '@radix-ui/react-dialog';
import type { Slot } from '@kringle/contracts/catalogue';
import { formatSessionTime } from '@kringle/contracts/dates';
import { refundDeadline, type PolicyRules } from '@kringle/contracts/policy';
import { Button } from '../../../components/ui/button';
import { CONFIRM_DIALOG, focusSafeChoice } from '../../../components/ui/confirm-dialog';
import { serverNow } from '../../../lib/server-clock';

/**
 * Whether moving a booking from `from` to `to` gives up its refund: the new session is inside
 * the refund cut-off while the current one is not (an unknown current session counts as refundable).
 */
export function moveLosesRefund(
  from: string | undefined,
  to: string,
  rules: PolicyRules,
  now: Date = new Date(serverNow()),
): boolean {
  const refundable = (startAt: string) => now < refundDeadline(new Date(startAt), rules);
  return (from === undefined || refundable(from)) && !refundable(to);
}

export interface MoveConfirmDialogProps {
  /** The session picked; null keeps the dialog closed. */
  slot: Slot | null;
  /** The booking's current start. */
  from: string | undefined;
  timezone: string;
  /** Moves already made; this one would be the next. */
  movesUsed: number;
  /** Free moves a booking has (the policy in force). */
  rescheduleLimit: number;
  /** The refund cut-off in hours when this move gives up the refund (moveLosesRefund), else null. */
  losesRefundWithin: number | null;
  /** The session type changes with the move (issue 37 item 4): from which to which. */
  typeChange?: { from: string; to: string } | null;
  busy: boolean;
  onKeepLooking: () => void;
  onMove: (slot: Slot) => void;
}

/**
 * The one question before a reschedule: from which time to which, and what it uses up. A move into
 * the refund cut-off is an alert: it says first that a later cancellation is not refunded.
 * Focus starts on the safe choice, as in the cancel dialog, since the move happens at once.
 */
export function MoveConfirmDialog({
  slot,
  from,
  timezone,
  movesUsed,
  rescheduleLimit: limit,
  losesRefundWithin,
  typeChange = null,
  busy,
  onKeepLooking,
  onMove,
}: MoveConfirmDialogProps) {
  const late = losesRefundWithin !== null;
  return (
    <Dialog.Root open={slot !== null} onOpenChange={(open) => !open && !busy && onKeepLooking()}>
      <Dialog.Portal>
        <Dialog.Overlay className={CONFIRM_DIALOG.overlay} />
        <Dialog.Content
          role={late ? 'alertdialog' : 'dialog'}
          onOpenAutoFocus={focusSafeChoice}
          className={CONFIRM_DIALOG.content}
        >
          <Dialog.Title className={CONFIRM_DIALOG.title}>
            {late ? 'Move to a session without a refund?' : 'Move your booking?'}
          </Dialog.Title>
          <Dialog.Description asChild>
            <div className="flex flex-col gap-3 text-ink-700">
              {slot && (
                <dl
                  className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-xl bg-cream-200 p-3"
                  data-testid="move-from-to"
                >
                  <dt className="text-sm">From</dt>
                  <dd className="font-semibold text-ink-600 line-through decoration-ink-600/60">
                    {from ? formatSessionTime(from, timezone) : 'Your current time'}
                  </dd>
                  <dt className="text-sm">To</dt>
                  <dd className="font-semibold text-ink-900">{formatSessionTime(slot.startAt, timezone)}</dd>
                </dl>
              )}
              {late && (
                <p className="rounded-xl border border-gold-400 bg-gold-300/30 p-3 text-ink-900">
                  The new time is less than {losesRefundWithin} hours away.{' '}
                  <strong>If you move your booking there and cancel it later, there is no refund.</strong>
                </p>
              )}
              {typeChange && (
                <p
                  data-testid="move-type-change"
                  className="rounded-xl border border-gold-400 bg-gold-300/30 p-3 text-ink-900"
                >
                  <strong>
                    The session type changes from {typeChange.from} to {typeChange.to}.
                  </strong>{' '}
                  Your packages and the price you paid stay the same.
                </p>
              )}
              <p>
                Same place, packages and price. This uses free move {movesUsed + 1} of {limit}.
              </p>
            </div>
          </Dialog.Description>
          <div className={CONFIRM_DIALOG.actions}>
            <Dialog.Close asChild>
              <Button variant="secondary" data-autofocus disabled={busy}>
                Choose another time
              </Button>
            </Dialog.Close>
            <Button onClick={() => slot && onMove(slot)} disabled={busy} aria-busy={busy}>
              {busy ? 'Moving...' : 'Move my booking'}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
