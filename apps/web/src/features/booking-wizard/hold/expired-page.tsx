import { type ReactNode, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { formatSessionTime, localDateOf } from '@kringle/contracts/dates';
import { Button } from '../../../components/ui/button';
import { CheckIcon, ClockIcon } from '../../../components/ui/icons';
import { useGetReservationQuery, useGetSlotQuery } from '../api';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { startOver, tryAgain } from './hold-actions';

const dayName = new Intl.DateTimeFormat('en-AU', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' });

/**
 * /expired: the hold ran out, or was let go in another tab or on another device. Plain words, and
 * the quickest way back: the same session held again when it is still free, else the same day's
 * other times (or, let go elsewhere, a new time), keeping location, type and packages; or a clean
 * start.
 */
const keptWords = (packages: boolean) =>
  packages ? 'Your location, visit and packages are kept' : 'Your location and visit are kept';

export function ReservationExpiredPage() {
  const dispatch = useWizardDispatch();
  const navigate = useNavigate();
  const location = useWizardSelector((s) => s.booking.location);
  const slotType = useWizardSelector((s) => s.booking.slotType[0]);
  const lapsedSlotId = useWizardSelector((s) => s.booking.lapsedSlotId ?? null);
  // Only what was chosen is said to be kept: a family may not have reached the packages.
  const hasPackages = useWizardSelector((s) =>
    Object.values(s.booking.packages).some((p) => !p.remove && p.totalQuantity > 0),
  );
  const kept = location !== null && slotType !== undefined && lapsedSlotId !== null;
  const slot = useGetSlotQuery(
    { locationId: location?.id ?? '', slotId: lapsedSlotId ?? '' },
    { skip: !kept, refetchOnMountOrArgChange: true },
  );
  const [busy, setBusy] = useState(false);
  const released = (useLocation().state as { released?: boolean } | null)?.released === true;
  const canChoose = location !== null && slotType !== undefined;
  // Let go elsewhere may mean booked elsewhere: another tab or device went on to pay with this hold.
  const holdId = useWizardSelector((s) => s.booking.reservationData?.holdId);
  const reservation = useGetReservationQuery(holdId ?? '', {
    skip: !released || !holdId,
    refetchOnMountOrArgChange: true,
  });
  const [bookedElsewhere, setBookedElsewhere] = useState(false);
  const checkedOut = reservation.currentData?.status === 'checked_out';
  // Kept once seen: clearing the wizard below drops the hold this answer is about.
  if (checkedOut && !bookedElsewhere) setBookedElsewhere(true);
  useEffect(() => {
    // The wizard here would only reopen a hold that is now a booking.
    if (bookedElsewhere) void dispatch(startOver());
  }, [bookedElsewhere, dispatch]);

  const session = slot.data && slot.data.kind === 'session' ? slot.data : null;
  const stillFree = session?.status === 'available';
  const day = session && location ? localDateOf(new Date(session.startAt), location.timezone) : null;

  const again = () => {
    void dispatch(startOver());
    navigate('/create-booking', { replace: true });
  };
  const resume = async (holdSame: boolean) => {
    setBusy(true);
    const held = await dispatch(tryAgain(holdSame ? session : null)).unwrap();
    // Held again: the wizard continues at Package. Otherwise the Session step opens on the same day.
    navigate(held || !day ? '/create-booking' : `/create-booking?date=${day}`, { replace: true });
  };

  if (bookedElsewhere) return <BookedElsewhere />;
  // Until the reservation answers, "nothing was booked" might not be true.
  if (released && holdId && reservation.isFetching && !reservation.currentData) {
    return (
      <p role="status" className="mx-auto px-4 py-12 text-ink-700">
        Checking your session…
      </p>
    );
  }

  return (
    <OutcomeCard
      icon={<ClockIcon className="size-8" />}
      iconClassName="bg-gold-300/40 text-gold-700"
      title={released ? 'This session is no longer held' : 'Your time ran out'}
      actions={
        <>
          {kept && session && stillFree && (
            <Button
              onClick={() => void resume(true)}
              disabled={busy}
              aria-busy={busy}
              className="w-full sm:w-auto sm:min-w-56"
            >
              Hold the same session again
            </Button>
          )}
          {kept && session && !stillFree && day && (
            <Button
              onClick={() => void resume(false)}
              disabled={busy}
              aria-busy={busy}
              className="w-full sm:w-auto sm:min-w-56"
            >
              Choose another time on {dayName.format(new Date(`${day}T00:00:00Z`))}
            </Button>
          )}
          {released && canChoose && (
            <Button
              onClick={() => void resume(false)}
              disabled={busy}
              aria-busy={busy}
              className="w-full sm:w-auto sm:min-w-56"
            >
              Choose a new time
            </Button>
          )}
          <Button
            variant={(kept && session) || (released && canChoose) ? 'secondary' : 'primary'}
            onClick={again}
            disabled={busy}
            className="w-full sm:w-auto sm:min-w-56"
          >
            Start again
          </Button>
        </>
      }
    >
      {released ? (
        <p>
          A session chosen in another tab or on another device let this one go: a family holds one session at a time. It
          has gone back on sale for other families.
        </p>
      ) : (
        <p>
          We held your session for you, but the timer ran out before the booking was finished, so the session has gone
          back on sale for other families.
        </p>
      )}
      <p>Nothing was booked and you have not been charged.</p>
      {kept && session && location && (
        <p className="font-semibold text-ink-900" role="status">
          {stillFree
            ? `Good news: ${formatSessionTime(session.startAt, location.timezone)} is still free. ` +
              `${keptWords(hasPackages)}.`
            : `${formatSessionTime(session.startAt, location.timezone)} has been taken. ${keptWords(hasPackages)}, ` +
              `so you only ` +
              `need a new time.`}
        </p>
      )}
    </OutcomeCard>
  );
}

/** The hold became a booking in another tab or on another device: nothing is lost, it is in My Bookings. */
function BookedElsewhere() {
  const navigate = useNavigate();
  return (
    <OutcomeCard
      icon={<CheckIcon className="size-8" />}
      iconClassName="bg-pine-50 text-pine-700"
      title="This session was booked elsewhere"
      actions={
        <>
          <Button onClick={() => navigate('/bookings', { replace: true })} className="w-full sm:w-auto sm:min-w-56">
            Go to My Bookings
          </Button>
          <Button
            variant="secondary"
            onClick={() => navigate('/create-booking', { replace: true })}
            className="w-full sm:w-auto sm:min-w-56"
          >
            Book another session
          </Button>
        </>
      }
    >
      <p>It was booked in another tab or on another device, so there is nothing more to do here.</p>
      <p>My Bookings shows the booking, and lets you finish paying if that is not done yet.</p>
    </OutcomeCard>
  );
}

/** /expired's one card: an icon, what happened in plain words, and the ways on. */
function OutcomeCard({
  icon,
  iconClassName,
  title,
  children,
  actions,
}: {
  icon: ReactNode;
  iconClassName: string;
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-8 sm:px-8 sm:py-12">
      <div
        className={
          'flex flex-col items-center gap-5 rounded-2xl border border-cream-300 bg-cream-50 px-6 py-10 ' +
          'text-center shadow-sm'
        }
      >
        <span aria-hidden="true" className={`flex size-16 items-center justify-center rounded-full ${iconClassName}`}>
          {icon}
        </span>
        <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">{title}</h1>
        <div className="flex max-w-md flex-col gap-3 text-base leading-relaxed text-ink-700">{children}</div>
        <div className="flex w-full flex-col items-center gap-3">{actions}</div>
      </div>
    </section>
  );
}
