import * as Dialog from '@radix-ui/react-dialog';
import type { Slot } from '@kringle/contracts/catalogue';
import { formatSessionTime } from '@kringle/contracts/dates';
import { refundDeadline, type PolicyRules } from '@kringle/contracts/policy';
import { Button } from '../../components/ui/button';
import { CONFIRM_DIALOG, focusSafeChoice } from '../../components/ui/confirm-dialog';
import { serverNow } from '../../lib/server-clock';

/**
 * Whether moving a booking from `from` to `to` gives up its refund: the new session is inside
 * the refund cut-off while the current one is not (an unknown current session counts as refundable).
 */
export function moveLosesRefund(from: string | undefined, to: string, rules: PolicyRules, now: Date = new Date(serverNow())): boolean {
  const refundable = (startAt: string) => now < refundDeadline(new Date(startAt), rules);
  return (from === undefined || refundable(from)) && !refundable(to);
}

export interface LateMoveDialogProps {
  /** The session picked; null keeps the dialog closed. */
  slot: Slot | null;
  timezone: string;
  /** The refund cut-off in force (GET /common/policy). */
  refundCutoffHours: number;
  onKeepLooking: () => void;
  onMove: (slot: Slot) => void;
}

/**
 * Asked before a reschedule moves a booking inside the refund cut-off, since the move itself
 * happens at once. Focus starts on the safe choice, as in the cancel dialog.
 */
export function LateMoveDialog({ slot, timezone, refundCutoffHours, onKeepLooking, onMove }: LateMoveDialogProps) {
  return (
    <Dialog.Root open={slot !== null} onOpenChange={(open) => !open && onKeepLooking()}>
      <Dialog.Portal>
        <Dialog.Overlay className={CONFIRM_DIALOG.overlay} />
        <Dialog.Content
          role="alertdialog"
          onOpenAutoFocus={focusSafeChoice}
          className={CONFIRM_DIALOG.content}
        >
          <Dialog.Title className={CONFIRM_DIALOG.title}>Move to a session without a refund?</Dialog.Title>
          <Dialog.Description asChild>
            <div className="flex flex-col gap-3 text-ink-700">
              {slot && (
                <p>
                  <span className="whitespace-nowrap font-semibold text-ink-900">{formatSessionTime(slot.startAt, timezone)}</span> is less than{' '}
                  {refundCutoffHours} hours away.
                </p>
              )}
              <p className="rounded-xl bg-cream-200 p-3 font-semibold text-ink-900">If you move your booking there and cancel it later, there is no refund.</p>
              <p className="text-sm">Your booking keeps its price. Until you move it, it stays where it is.</p>
            </div>
          </Dialog.Description>
          <div className={CONFIRM_DIALOG.actions}>
            <Dialog.Close asChild>
              <Button variant="secondary" data-autofocus>
                Choose another time
              </Button>
            </Dialog.Close>
            <Button onClick={() => slot && onMove(slot)}>Move my booking</Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
