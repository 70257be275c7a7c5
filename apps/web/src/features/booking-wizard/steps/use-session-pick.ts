import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Slot } from '@kringle/contracts/catalogue';
import { formatSessionTime } from '@kringle/contracts/dates';
import type { Policy } from '@kringle/contracts/policy-schema';
import { useWizardDispatch } from '../state/booking-hooks';
import { moveBookingTo, takeHold } from '../hold/hold-actions';
import { moveLosesRefund } from './move-confirm-dialog';
import type { useBookingToMove } from './use-booking-to-move';

export interface TakenNotice {
  slot: Slot;
  message: string;
}

interface PickDeps {
  rescheduling: boolean;
  policy: Policy | undefined;
  toMove: ReturnType<typeof useBookingToMove>;
  /** Asked again when the session picked was just taken. */
  refetchDay: () => void;
}

/**
 * Picking a session: a new booking takes the hold; a reschedule asks the one question first (from →
 * to, warning when the move gives up the refund), then moves the booking and ends in My Bookings.
 * A session just taken says so, with the next free ones; any other refusal is shown as it came.
 */
export function useSessionPick({ rescheduling, policy, toMove, refetchDay }: PickDeps) {
  const dispatch = useWizardDispatch();
  const navigate = useNavigate();
  const [pendingSlotId, setPendingSlotId] = useState<string | null>(null);
  // A tap in flight (a slow network): a second tap before the answer changes nothing, so the first
  // tap's intent stands (issue 37 item 5). A ref, so even two taps in one frame see it.
  const inFlight = useRef(false);
  const [taken, setTaken] = useState<TakenNotice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmMove, setConfirmMove] = useState<{ slot: Slot; losesRefund: boolean } | null>(null);

  const clearNotices = () => {
    setTaken(null);
    setError(null);
  };

  const showProblem = (slot: Slot, problem: { code?: string; error?: string } | undefined) => {
    if (problem?.code === 'SLOT_UNAVAILABLE') {
      setTaken({ slot, message: problem.error ?? 'Sorry, that session was just taken.' });
      refetchDay();
    } else setError(problem?.error ?? 'We could not hold that session. Please try again.');
  };

  /** `confirmed`: the family has answered the one question (from → to, with the late-move warning when it applies). */
  const pick = async (slot: Slot, confirmed = false) => {
    clearNotices();
    if (rescheduling && !confirmed) {
      if (!policy) {
        // Whether the move gives up the refund depends on the cut-off in force: no guessing.
        setError('The booking policy is still loading. Please try again in a moment.');
        return;
      }
      // Asked again at the tap, so the question is about the booking as it is now.
      const now = (await toMove.refetch()).data;
      // One confirmation, from → to, which warns first when the move gives up the refund.
      setConfirmMove({ slot, losesRefund: moveLosesRefund(now?.slot.startAt ?? toMove.from, slot.startAt, policy) });
      return;
    }
    if (inFlight.current) return;
    inFlight.current = true;
    setPendingSlotId(slot.id);
    if (rescheduling) {
      const moved = await dispatch(moveBookingTo(slot));
      inFlight.current = false;
      setPendingSlotId(null);
      setConfirmMove(null);
      if (moveBookingTo.fulfilled.match(moved)) {
        // Spec §4: a reschedule ends on the new confirmed time, shown in My Bookings with what changed
        // (its notice is the one message: a toast as well covered the page's heading on a phone).
        const to = formatSessionTime(moved.payload.slot.startAt, moved.payload.location.timezone);
        const from = toMove.from;
        const moveSummary = {
          reference: moved.payload.reference,
          from: from ? formatSessionTime(from, moved.payload.location.timezone) : null,
          to,
          movesUsed: moved.payload.rescheduleCount,
        };
        void navigate('/bookings', { replace: true, state: { moved: moveSummary } });
        return;
      }
      return showProblem(slot, moved.payload?.data);
    }
    const result = await dispatch(takeHold(slot));
    inFlight.current = false;
    setPendingSlotId(null);
    if (takeHold.rejected.match(result)) showProblem(slot, result.payload?.data);
  };

  return { pendingSlotId, taken, error, confirmMove, setConfirmMove, clearNotices, pick };
}
