import { clsx } from 'clsx';
import { Fragment, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { formatSessionTime } from '@kringle/contracts/dates';
import { Button } from '../../../components/ui/button';
import { ClockIcon } from '../../../components/ui/icons';
import { formatCountdown } from '../../../lib/timer';
import { useGetReservationQuery, useGetSlotQuery } from '../api';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { expiredState, extendHold, RELEASED_ELSEWHERE, resumeHold, tickHold } from './hold-actions';
import { useShownRemaining } from './hold-length';

/** From this many seconds left the bar turns urgent and offers more time. */
const URGENT_SECONDS = 120;

/** Minutes, spoken: "2 minutes", "1 minute". */
const minutesWords = (seconds: number) => {
  const m = Math.ceil(seconds / 60);
  return `${m} minute${m === 1 ? '' : 's'}`;
};

/**
 * Height of the layout's sticky phone header (a sibling of #main), so the bar sticks just
 * under it whatever its size; 0 on wide screens, where there is none.
 */
function useStickyHeaderHeight(): number {
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const header = document.getElementById('main')?.parentElement?.querySelector<HTMLElement>(':scope > header');
    if (!header || typeof ResizeObserver === 'undefined') return;
    // The observer reports once at once, then on every change (rotation, font size).
    const observer = new ResizeObserver(() => setHeight(header.getBoundingClientRect().height));
    observer.observe(header);
    return () => observer.disconnect();
  }, []);
  return height;
}

/**
 * The countdown and, from the Package step on a wide screen, the total: one sticky block with the
 * page's own background behind it and the gap between the bars, so nothing scrolled under them
 * shows through (issue 53 item 18: two sticky bars, 8 px above and 6 px between, let the cards
 * below show). Under the phone header; 8 px from the top where there is none.
 */
export function StickyHoldBars({ children }: { children: ReactNode }) {
  const headerHeight = useStickyHeaderHeight();
  return (
    <div
      data-testid="hold-bars"
      style={{ top: headerHeight }}
      className={clsx(
        'sticky z-10 -mx-4 flex flex-col gap-1.5 bg-cream-100 sm:-mx-2 sm:px-2 sm:pb-1.5',
        headerHeight > 0 ? '' : 'pt-2',
      )}
    >
      {children}
    </div>
  );
}

/**
 * The held session's countdown (spec §4 timer), at the top of the wizard (in StickyHoldBars) so
 * it stays in view on a phone. At 0 the app goes to /expired; the server lets the hold lapse by itself.
 */
export function CountdownBar() {
  const dispatch = useWizardDispatch();
  const navigate = useNavigate();
  const hold = useWizardSelector((s) => s.booking.reservationData);
  const location = useWizardSelector((s) => s.booking.location);
  const { endDate, remaining, isRunning } = useWizardSelector((s) => s.timer);
  const shown = useShownRemaining(endDate, remaining);
  const holdId = hold?.holdId;
  const reservation = useGetReservationQuery(holdId ?? '', { skip: !holdId, refetchOnFocus: true });
  const slot = useGetSlotQuery(
    { locationId: location?.id ?? '', slotId: hold?.slotId ?? '' },
    { skip: !hold || !location },
  );
  const [extendError, setExtendError] = useState<string | null>(null);
  const [extending, setExtending] = useState(false);

  // The timer slice is not persisted: after a reload, start it again from the stored hold.
  useEffect(() => {
    if (!holdId) return;
    void dispatch(resumeHold())
      .unwrap()
      .then((lapsed) => lapsed && navigate('/expired', { replace: true }));
  }, [dispatch, navigate, holdId]);

  useEffect(() => {
    if (!isRunning) return;
    const id = window.setInterval(() => {
      void dispatch(tickHold())
        .unwrap()
        .then((lapsed) => lapsed && navigate('/expired'));
    }, 1000);
    return () => window.clearInterval(id);
  }, [dispatch, navigate, isRunning]);

  // Another tab or device may have replaced this hold, or booked it; then it is gone here too.
  const checkedOutHere = useWizardSelector((s) => s.booking.checkoutData?.bookingId);
  const current = reservation.data?.id === holdId ? reservation.data : undefined;
  const bookedElsewhere = current?.status === 'checked_out' && current.bookingId !== checkedOutHere;
  const status = current?.status;
  useEffect(() => {
    if (status === 'cancelled' || bookedElsewhere) navigate('/expired', { state: RELEASED_ELSEWHERE });
    else if (status === 'expired') navigate('/expired');
  }, [status, bookedElsewhere, navigate]);

  if (!hold) return null;
  const urgent = remaining > 0 && remaining <= URGENT_SECONDS;
  const refreshesLeft = reservation.currentData?.refreshesLeft ?? 0;
  // currentData, not data: while a new hold's session loads, data is still the previous session's.
  const sessionLabel =
    slot.currentData && location ? formatSessionTime(slot.currentData.startAt, location.timezone) : null;

  const askForTime = async () => {
    setExtending(true);
    setExtendError(null);
    const result = await dispatch(extendHold());
    setExtending(false);
    if (extendHold.rejected.match(result)) {
      if (result.payload?.data.code === 'HOLD_EXPIRED') navigate('/expired', expiredState(remaining));
      else setExtendError(result.payload?.data.error ?? 'We could not add more time. Please try again.');
    }
  };

  return (
    <section
      aria-label="Session on hold"
      data-testid="hold-countdown"
      data-urgent={urgent}
      className={clsx(
        'border-y px-4 py-2 shadow-sm sm:rounded-2xl sm:border',
        urgent ? 'border-festive-700 bg-festive-700 text-cream-50' : 'border-gold-400 bg-cream-50 text-ink-900',
      )}
    >
      {/* The button goes under the words only when they would have less than 8rem beside it (a 320 px phone). */}
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <ClockIcon aria-hidden="true" className={clsx('size-6 shrink-0', urgent ? 'text-cream-50' : 'text-gold-700')} />
        <p className="min-w-0 grow basis-32 leading-snug">
          <span className="block text-sm font-semibold">
            {urgent ? 'Only ' : 'Held for you: '}
            <span role="timer" aria-label={`${minutesWords(shown)} left`} className="font-mono text-lg tabular-nums">
              {formatCountdown(shown)}
            </span>
            {urgent ? ' left' : ''}
          </span>
          {sessionLabel && (
            // Wraps beside the button on a phone, between the day and the time: "Sun 6 Dec," over "10:40 am AEDT".
            <span className={clsx('block text-sm', urgent ? 'text-cream-100' : 'text-ink-600')}>
              {sessionLabel.split(', ').map((part, i) => (
                <Fragment key={part}>
                  {i > 0 && ', '}
                  <span className="whitespace-nowrap">{part}</span>
                </Fragment>
              ))}
            </span>
          )}
        </p>
        {urgent && refreshesLeft > 0 && (
          <Button
            variant="secondary"
            className="ml-auto shrink-0 px-3 text-sm"
            onClick={() => void askForTime()}
            disabled={extending}
          >
            {extending ? 'Adding time…' : 'I need more time'}
          </Button>
        )}
      </div>
      {/*
        Spoken once when the bar turns urgent (WCAG 2.2.1: two minutes before the end), politely, so it waits for the
        reader to finish; its words never change while urgent, so nothing is said each second or minute. The timer
        above is not live (role="timer" is aria-live off).
      */}
      <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="hold-announcement">
        {urgent ? `Less than ${minutesWords(URGENT_SECONDS)} left to finish your booking.` : ''}
      </p>
      {extendError && (
        <p role="alert" className={clsx('mt-1 text-sm font-medium', urgent ? 'text-cream-50' : 'text-festive-700')}>
          {extendError}
        </p>
      )}
    </section>
  );
}
