import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { ClockIcon } from '../../components/ui/icons';
import { useWizardDispatch } from './booking-hooks';
import { startOver } from './hold-actions';

/** /expired: the hold ran out. Plain words, and one click to begin again with nothing stale. */
export function ReservationExpiredPage() {
  const dispatch = useWizardDispatch();
  const navigate = useNavigate();
  const again = () => {
    void dispatch(startOver());
    navigate('/create-booking', { replace: true });
  };
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-8 sm:px-8 sm:py-12">
      <div className="flex flex-col items-center gap-5 rounded-2xl border border-cream-300 bg-cream-50 px-6 py-10 text-center shadow-sm">
        <span aria-hidden="true" className="flex size-16 items-center justify-center rounded-full bg-gold-300/40 text-gold-700">
          <ClockIcon className="size-8" />
        </span>
        <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">Your time ran out</h1>
        <div className="flex max-w-md flex-col gap-3 text-base leading-relaxed text-ink-700">
          <p>We held your session for you, but the timer ran out before the booking was finished, so the session has gone back on sale for other families.</p>
          <p>Nothing was booked and you have not been charged. Start again to choose a time; it only takes a minute.</p>
        </div>
        <Button onClick={again} className="w-full sm:w-auto sm:min-w-56">
          Start again
        </Button>
      </div>
    </section>
  );
}
