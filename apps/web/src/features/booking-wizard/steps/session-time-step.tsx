import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { Slot } from '@kringle/contracts/catalogue';
import { formatSessionTime, localDateOf, zoneAbbreviation } from '@kringle/contracts/dates';
import { Button } from '../../../components/ui/button';
import { useGetAvailableDatesQuery, useGetAvailableSlotsQuery, useGetSlotQuery } from '../api';
import { useGetBookingQuery } from '../../../lib/booking-api';
import { useWizardDispatch, useWizardSelector } from '../booking-hooks';
import { DatePicker, DatePickerKey, nextFreeDay } from '../date-picker';
import { DayNotice } from '../day-notice';
import { useSlotChangesQuery } from '../live-slots';
import { moveBookingTo, takeHold } from '../hold-actions';
import { useStepBack } from '../use-step-history';
import { useGetPolicyQuery } from '../../../lib/policy-api';
import { MoveConfirmDialog, moveLosesRefund } from '../move-confirm-dialog';
import { SalesCountdown, useSalesOpen } from '../sales-countdown';
import { dayZone, SessionList, sessionTime } from '../session-list';
import { LoadingList, LoadProblem } from './load-states';
import { StepFrame } from './step-frame';

// Only a fully booked day needs it: loaded then, not with the wizard (the /create-booking budget).
const WaitlistJoin = lazy(() => import('../waitlist-join').then((m) => ({ default: m.WaitlistJoin })));

/**
 * Taken sessions show up without a reload: pushed by the live stream (decision 0026), else the
 * day's list is polled; refetched on focus either way. While live, a slow poll still catches what
 * the stream does not send (payments, new blocks).
 */
export const SLOTS_POLL_MS = 15_000;
export const LIVE_SAFETY_POLL_MS = 60_000;
const NEXT_FREE_COUNT = 3;

interface TakenNotice {
  slot: Slot;
  message: string;
}

/** The next free sessions of the day after a taken one (earlier ones when none are later). */
export function nextFreeSessions(slots: Slot[], after: Slot, count = NEXT_FREE_COUNT): Slot[] {
  const free = slots.filter((s) => s.kind === 'session' && s.status === 'available' && s.id !== after.id);
  const later = free.filter((s) => s.startAt > after.startAt);
  return (later.length > 0 ? later : free).slice(0, count);
}

const dayHeading = new Intl.DateTimeFormat('en-AU', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' });

/** Step 3: when. A calendar of days with sessions left, then that day's sessions; picking one takes the hold. */
export function SessionTimeStep({ focusOnMount }: { focusOnMount: boolean }) {
  const dispatch = useWizardDispatch();
  const location = useWizardSelector((s) => s.booking.location);
  const slotType = useWizardSelector((s) => s.booking.slotType[0]);
  const hold = useWizardSelector((s) => s.booking.reservationData);
  const rescheduleData = useWizardSelector((s) => s.booking.rescheduleData);
  const rescheduling = rescheduleData !== null;
  const navigate = useNavigate();
  const [chosenDate, setChosenDate] = useState<string | null>(null);
  const [pendingSlotId, setPendingSlotId] = useState<string | null>(null);
  const [taken, setTaken] = useState<TakenNotice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const policy = useGetPolicyQuery().data;
  const [confirmMove, setConfirmMove] = useState<{ slot: Slot; losesRefund: boolean } | null>(null);
  // The booking as it is now, over what was stored when the reschedule began: another tab may
  // have moved it since, and the dialog's "from" and free moves must say so.
  const toMove = useGetBookingQuery(rescheduleData?.bookingId ?? '', { skip: !rescheduling, refetchOnMountOrArgChange: true, refetchOnFocus: true });
  const latest = toMove.currentData;
  const from = latest?.slot.startAt ?? (typeof rescheduleData?.startAt === 'string' ? rescheduleData.startAt : undefined);
  const movesUsed = latest?.rescheduleCount ?? (typeof rescheduleData?.rescheduleCount === 'number' ? rescheduleData.rescheduleCount : 0);
  const currentSlotId = latest?.slot.id ?? (typeof rescheduleData?.slotId === 'string' ? rescheduleData.slotId : null);

  const locationId = location?.id ?? '';
  const slotTypeId = slotType?.id ?? '';
  const timezone = location?.timezone ?? 'Australia/Sydney';
  const dates = useGetAvailableDatesQuery({ locationId, slotTypeId }, { skip: !location || !slotType, refetchOnFocus: true, pollingInterval: 60_000 });
  const heldSlot = useGetSlotQuery({ locationId, slotId: hold?.slotId ?? '' }, { skip: !hold || !location });
  const heldDate = heldSlot.data ? localDateOf(new Date(heldSlot.data.startAt), timezone) : null;
  const firstOpen = dates.data?.items.find((d) => d.available > 0)?.date ?? null;
  const opensAt = dates.data?.salesOpenAt ?? location?.salesOpenAt ?? null;
  const { open: salesOpen, openedHere } = useSalesOpen(opensAt);
  // Before the opening nothing is bookable: the list shows the opening day's sessions to plan by.
  // It stays the day shown through the opening instant, until the days answer says what is free:
  // were it dropped then, the list would be skipped and come back with its answer from before.
  const openingDay = opensAt ? localDateOf(new Date(opensAt), timezone) : null;
  const preview = dates.data?.items.find((d) => openingDay !== null && d.date >= openingDay)?.date ?? dates.data?.items[0]?.date ?? null;
  // /expired sends the family back to the day they had chosen (?date=), when it still has sessions.
  const hinted = useSearchParams()[0].get('date');
  const hintOpen = hinted && dates.data?.items.some((d) => d.date === hinted && d.available > 0) ? hinted : null;
  const date = chosenDate ?? heldDate ?? hintOpen ?? firstOpen ?? preview;
  const live = useSlotChangesQuery(locationId, { skip: !location }).data?.live ?? false;
  const slots = useGetAvailableSlotsQuery(
    { locationId, slotTypeId, date: date ?? '' },
    { skip: !date || !slotTypeId, pollingInterval: live ? LIVE_SAFETY_POLL_MS : SLOTS_POLL_MS, skipPollingIfUnfocused: true, refetchOnFocus: true },
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

  const sessionsHeading = useRef<HTMLHeadingElement>(null);
  const chooseDate = (next: string) => {
    setChosenDate(next);
    setTaken(null);
    setError(null);
    // The times are under the calendar: on a phone, out of sight. Bring them up once they render.
    requestAnimationFrame(() => bringIntoView(sessionsHeading.current));
  };

  /** `confirmed`: the family has answered the one question (from → to, with the late-move warning when it applies). */
  const pick = async (slot: Slot, confirmed = false) => {
    setTaken(null);
    setError(null);
    if (rescheduling && !confirmed) {
      if (!policy) {
        // Whether the move gives up the refund depends on the cut-off in force: no guessing.
        setError('The booking policy is still loading. Please try again in a moment.');
        return;
      }
      // Asked again at the tap, so the question is about the booking as it is now.
      const now = (await toMove.refetch()).data;
      // One confirmation, from → to, which warns first when the move gives up the refund.
      setConfirmMove({ slot, losesRefund: moveLosesRefund(now?.slot.startAt ?? from, slot.startAt, policy) });
      return;
    }
    setPendingSlotId(slot.id);
    if (rescheduling) {
      const moved = await dispatch(moveBookingTo(slot));
      setPendingSlotId(null);
      setConfirmMove(null);
      if (moveBookingTo.fulfilled.match(moved)) {
        // Spec §4: a reschedule ends on the new confirmed time, shown in My Bookings with what changed
        // (its notice is the one message: a toast as well covered the page's heading on a phone).
        const to = formatSessionTime(moved.payload.slot.startAt, moved.payload.location.timezone);
        const moveSummary = { reference: moved.payload.reference, from: from ? formatSessionTime(from, moved.payload.location.timezone) : null, to, movesUsed: moved.payload.rescheduleCount };
        void navigate('/bookings', { replace: true, state: { moved: moveSummary } });
        return;
      }
      return showProblem(slot, moved.payload?.data);
    }
    const result = await dispatch(takeHold(slot));
    setPendingSlotId(null);
    if (takeHold.rejected.match(result)) showProblem(slot, result.payload?.data);
  };

  const showProblem = (slot: Slot, problem: { code?: string; error?: string } | undefined) => {
    if (problem?.code === 'SLOT_UNAVAILABLE') {
      setTaken({ slot, message: problem.error ?? 'Sorry, that session was just taken.' });
      void slots.refetch();
      void dates.refetch();
    } else setError(problem?.error ?? 'We could not hold that session. Please try again.');
  };

  // Back before this step lets the hold go (popToStep).
  const back = useStepBack();

  // currentData, not data: right after another day is chosen, data is still the previous day's list.
  const daySlots = slots.currentData;
  const items = daySlots?.items ?? [];
  const suggestions = taken ? nextFreeSessions(items, taken.slot) : [];
  const zone = (daySlots && dayZone(items, timezone)) ?? (date ? zoneAbbreviation(new Date(`${date}T12:00:00Z`), timezone) : '');
  // Flips at the opening instant itself (useSalesOpen), not at the next render after it.
  const notOnSale = !salesOpen;
  const day = dates.data?.items.find((d) => d.date === date);
  // The list is the fresher count (live changes patch it); the calendar's is the fallback.
  const free = daySlots ? items.filter((s) => s.kind === 'session' && s.status === 'available').length : (day?.available ?? 0);

  return (
    <StepFrame
      title="Choose a day and time"
      intro={
        <>
          {slotType?.name} at {location?.name}.{' '}
          {rescheduling
            ? `Pick a new time: we show you the change before anything moves, and the price stays the same.${policy ? ` You have used ${movesUsed} of ${policy.rescheduleLimit} free moves.` : ''}`
            : `Picking a time holds it for you${policy ? ` for ${policy.holdMinutes} minutes` : ''} while you finish booking.`}
        </>
      }
      focusOnMount={focusOnMount}
      actions={
        <Button variant="ghost" onClick={back}>
          Back
        </Button>
      }
    >
      {dates.isLoading && <LoadingList label="Loading days" rows={2} />}
      {dates.isError && <LoadProblem what="the available days" onRetry={() => void dates.refetch()} />}
      {opensAt && (!salesOpen || openedHere) && <SalesCountdown opensAt={opensAt} timezone={timezone} open={salesOpen} />}
      {dates.data && (
        <div className="rounded-2xl border border-cream-300 bg-cream-50 p-2 sm:p-4">
          <DatePicker days={dates.data.items} selected={date} onSelect={chooseDate} notOnSale={notOnSale} />
          <DatePickerKey />
        </div>
      )}
      {dates.data && salesOpen && !firstOpen && <p className="rounded-2xl bg-cream-200 p-4 text-ink-700">Every session of this kind is taken for the rest of the season. Please try another type of visit or location.</p>}

      {date && (
        <section aria-labelledby="sessions-heading" className="flex flex-col gap-3">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3">
            <h3 id="sessions-heading" ref={sessionsHeading} className="text-xl font-semibold text-ink-900">
              {dayHeading.format(new Date(`${date}T00:00:00Z`))}
            </h3>
            <p className="text-sm text-ink-600">
              Times in {location?.suburb} local time{zone ? ` (${zone})` : ''}
            </p>
          </div>
          {!notOnSale && day && (daySlots || !slots.isFetching) && (
            <DayNotice free={free} sessions={day.sessions} nextFree={nextFreeDay(dates.data?.items ?? [], date)} onJump={chooseDate} />
          )}

          {taken && (
            <div role="alert" className="flex flex-col gap-3 rounded-2xl border border-festive-100 bg-festive-50 p-4">
              <p className="font-semibold text-festive-800">{taken.message}</p>
              {suggestions.length > 0 ? (
                <>
                  <p className="text-ink-700">The next free sessions that day:</p>
                  <ul className="flex flex-wrap gap-2">
                    {suggestions.map((s) => (
                      <li key={s.id}>
                        <Button variant="secondary" onClick={() => void pick(s)} disabled={pendingSlotId !== null}>
                          {sessionTime(s.startAt, timezone)}
                        </Button>
                      </li>
                    ))}
                  </ul>
                </>
              ) : (
                !slots.isFetching && <p className="text-ink-700">Nothing else is free that day. Please choose another day.</p>
              )}
            </div>
          )}
          {error && (
            <p role="alert" className="rounded-2xl border border-festive-100 bg-festive-50 p-4 font-medium text-festive-800">
              {error}
            </p>
          )}

          {!daySlots && slots.isFetching && <LoadingList label="Loading sessions" rows={2} />}
          {slots.isError && <LoadProblem what="the sessions" onRetry={() => void slots.refetch()} />}
          {daySlots && (
            <SessionList slots={items} timezone={timezone} heldSlotId={hold?.slotId ?? null} currentSlotId={currentSlotId} pendingSlotId={pendingSlotId} onPick={(s) => void pick(s)} notOpenYet={notOnSale} />
          )}
        </section>
      )}
      {/* Issue 20: after the day's sessions, so they stay right under the calendar. */}
      {dates.data && !rescheduling && !notOnSale && location && slotType && dates.data.items.some((d) => d.available === 0 && d.sessions > 0) && (
        <Suspense fallback={null}>
          <WaitlistJoin locationId={locationId} locationName={location.name} slotTypeId={slotTypeId} slotTypeName={slotType.name} days={dates.data.items} shownDate={date} />
        </Suspense>
      )}
      <MoveConfirmDialog
        slot={confirmMove?.slot ?? null}
        from={from}
        timezone={timezone}
        movesUsed={movesUsed}
        rescheduleLimit={policy?.rescheduleLimit ?? 0}
        losesRefundWithin={confirmMove?.losesRefund && policy ? policy.refundCutoffHours : null}
        busy={pendingSlotId !== null}
        onKeepLooking={() => setConfirmMove(null)}
        onMove={(s) => void pick(s, true)}
      />
    </StepFrame>
  );
}

/** Scrolls `el` to the top of the view (below the sticky bars: html's scroll-padding) unless it is already in the upper part. */
function bringIntoView(el: HTMLElement | null) {
  if (!el) return;
  const top = el.getBoundingClientRect().top;
  if (top > 0 && top < window.innerHeight * 0.45) return;
  const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? true;
  el.scrollIntoView?.({ block: 'start', behavior: still ? 'auto' : 'smooth' });
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
