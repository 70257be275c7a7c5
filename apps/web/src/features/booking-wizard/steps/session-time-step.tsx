import { lazy, Suspense, useRef } from 'react';
import { zoneAbbreviation } from '@kringle/contracts/dates';
import { zoneLabel } from '../../../lib/zone-label';
import { Button } from '../../../components/ui/button';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { resumeLiveHold, useLiveHold } from '../hold/resume-hold';
import { DatePicker, DatePickerKey, nextFreeDay } from '../calendar/date-picker';
import { DayNotice } from '../calendar/day-notice';
import { useStepBack } from '../shell/use-step-history';
import { useGetPolicyQuery } from '../../../lib/policy-api';
import { MoveConfirmDialog } from './move-confirm-dialog';
import { SalesCountdown } from '../queue/sales-countdown';
import { dayZone, SessionList } from '../calendar/session-list';
import { LoadingList, LoadProblem } from './load-states';
import { StepFrame } from './step-frame';
import { nextFreeSessions, TakenNotice } from './taken-notice';
import { useBookingToMove } from './use-booking-to-move';
import { useSessionDay } from './use-session-day';
import { useSessionPick } from './use-session-pick';

// Only a fully booked day needs it: loaded then, not with the wizard (the /create-booking budget).
const WaitlistJoin = lazy(() => import('../waitlist/waitlist-join').then((m) => ({ default: m.WaitlistJoin })));

const dayHeading = new Intl.DateTimeFormat('en-AU', {
  timeZone: 'UTC',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
});

/** A reschedule onto another session type: from which to which (the move dialog says so), else null. */
function typeChangeOf(data: Record<string, unknown> | null, type: { id: string; name: string } | undefined) {
  if (!data || !type || typeof data.slotTypeId !== 'string' || data.slotTypeId === type.id) return null;
  return { from: typeof data.slotTypeName === 'string' ? data.slotTypeName : 'your current type', to: type.name };
}

/** Step 3: when. A calendar of days with sessions left, then that day's sessions; picking one takes the hold. */
export function SessionTimeStep({ focusOnMount }: { focusOnMount: boolean }) {
  const location = useWizardSelector((s) => s.booking.location);
  const slotType = useWizardSelector((s) => s.booking.slotType[0]);
  const hold = useWizardSelector((s) => s.booking.reservationData);
  const rescheduleData = useWizardSelector((s) => s.booking.rescheduleData);
  const rescheduling = rescheduleData !== null;
  const policy = useGetPolicyQuery().data;
  const toMove = useBookingToMove(rescheduleData);
  const {
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
  } = useSessionDay(location, slotType, hold, toMove.from);
  const refetchDay = () => {
    void slots.refetch();
    void dates.refetch();
  };
  const { pendingSlotId, taken, error, confirmMove, setConfirmMove, clearNotices, pick } = useSessionPick({
    rescheduling,
    policy,
    toMove,
    refetchDay,
  });
  // The family's own hold the server keeps but this wizard does not (signed out and in during it):
  // its session is theirs, not "Taken", and a tap picks it up where they were (issue 53 item 4).
  const dispatch = useWizardDispatch();
  const live = useLiveHold(hold !== null || rescheduling);
  const liveHere =
    live && live.hold.status === 'active' && live.location.id === location?.id && live.slotType.id === slotType?.id
      ? live
      : null;

  const sessionsHeading = useRef<HTMLHeadingElement>(null);
  const chooseDate = (next: string) => {
    setChosenDate(next);
    clearNotices();
    // The times are under the calendar: on a phone, out of sight. Bring them up once they render.
    requestAnimationFrame(() => bringIntoView(sessionsHeading.current));
  };

  // Back before this step lets the hold go (popToStep).
  const back = useStepBack();

  // currentData, not data: right after another day is chosen, data is still the previous day's list.
  const daySlots = slots.currentData;
  const items = daySlots?.items ?? [];
  const suggestions = taken ? nextFreeSessions(items, taken.slot) : [];
  const zone =
    (daySlots && dayZone(items, timezone)) ?? (date ? zoneAbbreviation(new Date(`${date}T12:00:00Z`), timezone) : '');
  // Flips at the opening instant itself (useSalesOpen), not at the next render after it.
  const notOnSale = !salesOpen;
  const day = dates.data?.items.find((d) => d.date === date);
  // The list is the fresher count (live changes patch it); the calendar's is the fallback.
  const free = daySlots
    ? items.filter((s) => s.kind === 'session' && s.status === 'available').length
    : (day?.available ?? 0);

  return (
    <StepFrame
      title="Choose a day and time"
      intro={
        <>
          {slotType?.name} at {location?.name}.{' '}
          {rescheduling
            ? `Pick a new time: we show you the change before anything moves, and the price stays the ` +
              `same.${policy ? ` You have used ${toMove.movesUsed} of ${policy.rescheduleLimit} free moves.` : ''}`
            : `Picking a time holds it for ` +
              `you${policy ? ` for ${policy.holdMinutes} minutes` : ''} while you finish booking.`}
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
      {opensAt && (!salesOpen || openedHere) && (
        <SalesCountdown opensAt={opensAt} timezone={timezone} open={salesOpen} />
      )}
      {dates.data && (
        <div className="rounded-2xl border border-cream-300 bg-cream-50 p-2 sm:p-4">
          <DatePicker days={dates.data.items} selected={date} onSelect={chooseDate} notOnSale={notOnSale} />
          <DatePickerKey />
        </div>
      )}
      {dates.data && salesOpen && !firstOpen && (
        <p className="rounded-2xl bg-cream-200 p-4 text-ink-700">
          Every session of this kind is taken for the rest of the season. Please try another type of visit or location.
        </p>
      )}

      {date && (
        <section aria-labelledby="sessions-heading" className="flex flex-col gap-3">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3">
            <h3 id="sessions-heading" ref={sessionsHeading} className="text-xl font-semibold text-ink-900">
              {dayHeading.format(new Date(`${date}T00:00:00Z`))}
            </h3>
            <p className="text-sm text-ink-600">Times are {zoneLabel(timezone, zone || null)}</p>
          </div>
          {!notOnSale && day && (daySlots || !slots.isFetching) && (
            <DayNotice
              free={free}
              sessions={day.sessions}
              nextFree={nextFreeDay(dates.data?.items ?? [], date)}
              onJump={chooseDate}
            />
          )}

          {taken && (
            <TakenNotice
              message={taken.message}
              suggestions={suggestions}
              timezone={timezone}
              busy={pendingSlotId !== null}
              loading={slots.isFetching}
              onPick={(s) => void pick(s)}
            />
          )}
          {error && (
            <p
              role="alert"
              className="rounded-2xl border border-festive-100 bg-festive-50 p-4 font-medium text-festive-800"
            >
              {error}
            </p>
          )}

          {!daySlots && slots.isFetching && <LoadingList label="Loading sessions" rows={2} />}
          {slots.isError && <LoadProblem what="the sessions" onRetry={() => void slots.refetch()} />}
          {daySlots && (
            <SessionList
              slots={items}
              timezone={timezone}
              heldSlotId={hold?.slotId ?? liveHere?.hold.slotId ?? null}
              onResumeHeld={liveHere ? () => resumeLiveHold(dispatch, liveHere) : undefined}
              currentSlotId={toMove.currentSlotId}
              pendingSlotId={pendingSlotId}
              onPick={(s) => void pick(s)}
              notOpenYet={notOnSale}
            />
          )}
        </section>
      )}
      {/* Issue 20: after the day's sessions, so they stay right under the calendar. */}
      {dates.data &&
        !rescheduling &&
        !notOnSale &&
        location &&
        slotType &&
        dates.data.items.some((d) => d.available === 0 && d.sessions > 0) && (
          <Suspense fallback={null}>
            <WaitlistJoin
              locationId={locationId}
              locationName={location.name}
              slotTypeId={slotTypeId}
              slotTypeName={slotType.name}
              days={dates.data.items}
              shownDate={date}
            />
          </Suspense>
        )}
      <MoveConfirmDialog
        slot={confirmMove?.slot ?? null}
        typeChange={typeChangeOf(rescheduleData, slotType)}
        from={toMove.from}
        timezone={timezone}
        movesUsed={toMove.movesUsed}
        rescheduleLimit={policy?.rescheduleLimit ?? 0}
        losesRefundWithin={confirmMove?.losesRefund && policy ? policy.refundCutoffHours : null}
        busy={pendingSlotId !== null}
        onKeepLooking={() => setConfirmMove(null)}
        onMove={(s) => void pick(s, true)}
      />
    </StepFrame>
  );
}

/**
 * Scrolls `el` to the top of the view (below the sticky bars: html's scroll-padding) unless it is already in the upper
 * part.
 */
function bringIntoView(el: HTMLElement | null) {
  if (!el) return;
  const top = el.getBoundingClientRect().top;
  if (top > 0 && top < window.innerHeight * 0.45) return;
  const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? true;
  el.scrollIntoView?.({ block: 'start', behavior: still ? 'auto' : 'smooth' });
}
