import * as Dialog from '@radix-ui/react-dialog';
import { formatClockTime, formatSessionTime } from '@kringle/contracts/dates';
import { Button } from '../../../components/ui/button';
import { CONFIRM_DIALOG, focusSafeChoice } from '../../../components/ui/confirm-dialog';
import { useGetSlotQuery } from '../api';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { selectActiveStep } from '../state/booking-slice';
import { keepHoldAndStay, letGoAndGoBack } from './hold-actions';
import { useReleaseAsk } from './release-ask';

/** "Thu 10 Dec 1:00 pm": the held session as the question names it. */
export function letGoLabel(startAt: string, timezone: string): string {
  return `${formatSessionTime(startAt, timezone).split(',')[0]} ${formatClockTime(startAt, timezone)}`;
}

/** The question before Back lets a held session go (issue 37 item 2). Focus starts on keeping it. */
export function ReleaseHoldDialog() {
  const target = useReleaseAsk();
  const step = useWizardSelector(selectActiveStep);
  const hold = useWizardSelector((s) => s.booking.reservationData);
  const location = useWizardSelector((s) => s.booking.location);
  const checkedOut = useWizardSelector((s) => s.booking.checkoutData !== null);
  const dispatch = useWizardDispatch();
  const slot = useGetSlotQuery(
    { locationId: location?.id ?? '', slotId: hold?.slotId ?? '' },
    { skip: target === null || !hold || !location },
  ).currentData;
  const open = target !== null && hold !== null;
  const what = slot && location ? letGoLabel(slot.startAt, location.timezone) : 'this session';
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && keepHoldAndStay(step)}>
      <Dialog.Portal>
        <Dialog.Overlay className={CONFIRM_DIALOG.overlay} />
        <Dialog.Content onOpenAutoFocus={focusSafeChoice} className={CONFIRM_DIALOG.content}>
          <Dialog.Title className={CONFIRM_DIALOG.title}>Let go of {what}?</Dialog.Title>
          <Dialog.Description className="text-ink-700">
            {checkedOut
              ? 'Going back cancels this unpaid booking (nothing is charged) and lets the session go at once: ' +
                'another family may book it.'
              : 'Going back lets this session go at once, and another family may book it.'}
          </Dialog.Description>
          <div className={CONFIRM_DIALOG.actions}>
            <Button variant="secondary" onClick={() => void dispatch(letGoAndGoBack())}>
              Let it go
            </Button>
            <Dialog.Close asChild>
              <Button data-autofocus>Keep my session</Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
