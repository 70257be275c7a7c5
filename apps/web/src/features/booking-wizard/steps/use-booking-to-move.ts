import { useGetBookingQuery } from '../../../lib/booking-api';
import type { RescheduleData } from '../state/booking-slice';

/**
 * The booking being rescheduled as it is now, over what was stored when the reschedule began:
 * another tab may have moved it since, and the move dialog's "from" and free moves must say so.
 */
export function useBookingToMove(rescheduleData: RescheduleData | null) {
  const rescheduling = rescheduleData !== null;
  const toMove = useGetBookingQuery(rescheduleData?.bookingId ?? '', {
    skip: !rescheduling,
    refetchOnMountOrArgChange: true,
    refetchOnFocus: true,
  });
  const latest = toMove.currentData;
  const from =
    latest?.slot.startAt ?? (typeof rescheduleData?.startAt === 'string' ? rescheduleData.startAt : undefined);
  const movesUsed =
    latest?.rescheduleCount ??
    (typeof rescheduleData?.rescheduleCount === 'number' ? rescheduleData.rescheduleCount : 0);
  const currentSlotId = latest?.slot.id ?? (typeof rescheduleData?.slotId === 'string' ? rescheduleData.slotId : null);
  return { refetch: toMove.refetch, from, movesUsed, currentSlotId };
}
