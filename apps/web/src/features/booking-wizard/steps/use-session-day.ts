import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { localDateOf } from '@kringle/contracts/dates';
import type { ReservationData } from '@kringle/contracts/reservations';
import { useGetAvailableDatesQuery, useGetAvailableSlotsQuery, useGetSlotQuery } from '../api';
import type { BookingLocation, SlotTypeChoice } from '../state/booking-slice';
import { useSlotChangesQuery } from '../calendar/live-slots';
import { useSalesOpen } from '../queue/sales-countdown';

/**
 * Taken sessions show up without a reload: pushed by the live stream (decision 0026), else the
 * day's list is polled; refetched on focus either way. While live, a slow poll still catches what
 * the stream does not send (payments, new blocks).
 */
const SLOTS_POLL_MS = 15_000;
const LIVE_SAFETY_POLL_MS = 60_000;

/**
 * The Session step's data: the days with sessions left, the day shown (chosen, else the held
 * session's, else the one /expired hints at, else the first with room, else the sale's opening
 * day) and its sessions, kept current by the live stream or polling, and read again when the sale opens.
 */
export function useSessionDay(
  location: BookingLocation | null,
  slotType: SlotTypeChoice | undefined,
  hold: ReservationData | null,
  ownStartAt?: string,
) {
  const [chosenDate, setChosenDate] = useState<string | null>(null);
  const locationId = location?.id ?? '';
  const slotTypeId = slotType?.id ?? '';
  const timezone = location?.timezone ?? 'Australia/Sydney';
  const dates = useGetAvailableDatesQuery(
    { locationId, slotTypeId },
    { skip: !location || !slotType, refetchOnFocus: true, pollingInterval: 60_000 },
  );
  const heldSlot = useGetSlotQuery({ locationId, slotId: hold?.slotId ?? '' }, { skip: !hold || !location });
  const heldDate = heldSlot.data ? localDateOf(new Date(heldSlot.data.startAt), timezone) : null;
  const firstOpen = dates.data?.items.find((d) => d.available > 0)?.date ?? null;
  const opensAt = dates.data?.salesOpenAt ?? location?.salesOpenAt ?? null;
  const { open: salesOpen, openedHere } = useSalesOpen(opensAt);
  // Before the opening nothing is bookable: the list shows the opening day's sessions to plan by.
  // It stays the day shown through the opening instant, until the days answer says what is free:
  // were it dropped then, the list would be skipped and come back with its answer from before.
  const openingDay = opensAt ? localDateOf(new Date(opensAt), timezone) : null;
  const preview =
    dates.data?.items.find((d) => openingDay !== null && d.date >= openingDay)?.date ??
    dates.data?.items[0]?.date ??
    null;
  // /expired sends the family back to the day they had chosen (?date=), when it still has sessions.
  const hinted = useSearchParams()[0].get('date');
  const hintOpen = hinted && dates.data?.items.some((d) => d.date === hinted && d.available > 0) ? hinted : null;
  // A reschedule opens on the booking's own day when that day is still in the calendar (issue 37 item 4).
  const ownDate = ownStartAt ? localDateOf(new Date(ownStartAt), timezone) : null;
  const ownDay = ownDate && dates.data?.items.some((d) => d.date === ownDate) ? ownDate : null;
  const date = chosenDate ?? heldDate ?? hintOpen ?? ownDay ?? firstOpen ?? preview;
  const live = useSlotChangesQuery(locationId, { skip: !location }).data?.live ?? false;
  const slots = useGetAvailableSlotsQuery(
    { locationId, slotTypeId, date: date ?? '' },
    {
      skip: !date || !slotTypeId,
      pollingInterval: live ? LIVE_SAFETY_POLL_MS : SLOTS_POLL_MS,
      skipPollingIfUnfocused: true,
      refetchOnFocus: true,
    },
  );
  useRefetchOnReconnect(live, slots.refetch, !!slots.data);
  // The opening's looks below run after renders that may have changed the day: they ask for the list as it is then.
  const latestSlots = useRef({ refetch: slots.refetch, date });
  useEffect(() => {
    latestSlots.current = { refetch: slots.refetch, date };
  });

  // At the opening instant: fetch what is now bookable. The device's view of the server's clock is
  // good to about a second, so a second look follows, in case the first came just before it.
  useEffect(() => {
    if (!openedHere) return;
    const refetchAll = () => {
      void dates.refetch();
      if (latestSlots.current.date) void latestSlots.current.refetch();
    };
    refetchAll();
    const again = setTimeout(refetchAll, 2_000);
    return () => clearTimeout(again);
    // Only the flip to open matters here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openedHere]);

  return {
    locationId,
    slotTypeId,
    timezone,
    dates,
    slots,
    date,
    setChosenDate,
    firstOpen,
    opensAt,
    salesOpen,
    openedHere,
  };
}

/** After the live stream comes back, what changed while it was away is read again (not on the first connect). */
function useRefetchOnReconnect(live: boolean, refetch: () => unknown, loaded: boolean) {
  const seen = useRef({ was: false, ever: false });
  useEffect(() => {
    const s = seen.current;
    if (live && !s.was && s.ever && loaded) void refetch();
    if (live) s.ever = true;
    s.was = live;
  }, [live, refetch, loaded]);
}
