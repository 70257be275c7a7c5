import { Link } from 'react-router';
import { formatSessionTime } from '@kringle/contracts/dates';
import type { Location } from '@kringle/contracts/catalogue';
import { buttonClasses } from '../../../components/ui/button';
import { useGetQueueTicketQuery } from '../../../lib/queue-api';
import { serverNow } from '../../../lib/server-clock';
import { AdmissionNotice } from './queue-admission';

/** Step 1 reads the family's ticket this often while a line is open: an admission shows without a reload. */
const POLL_MS = 5000;

/**
 * The Location step's word on a centre's waiting room (issue 53 item 10): a family already let in
 * is told so, with its time counting down, not sent back to the line; one in the line is told its
 * place; one that never joined learns here, before it picks a time, that it must join first.
 */
export function QueueStepNotice({ location }: { location: Location }) {
  const opensAt = location.queueOpensAt ? Date.parse(location.queueOpensAt) : null;
  const open = opensAt !== null && opensAt <= serverNow();
  const {
    data: ticket,
    isError,
    isLoading,
  } = useGetQueueTicketQuery(location.id, { skip: !open, pollingInterval: POLL_MS, skipPollingIfUnfocused: true });
  if (opensAt === null) return null;
  const box = 'mt-4 flex flex-col gap-2 rounded-2xl border border-gold-400 bg-gold-300/25 p-4 text-ink-900';
  const toLine = (text: string, primary = true) => (
    <Link className={buttonClasses(primary ? 'primary' : 'secondary', 'w-fit')} to={`/queue/${location.id}`}>
      {text}
    </Link>
  );

  if (!open) {
    return (
      <div className={box} data-testid="queue-step-notice" data-state="later">
        <p className="font-semibold">{location.name} opens bookings through a waiting room.</p>
        <p className="text-sm text-ink-700">
          Its waiting room opens {formatSessionTime(new Date(opensAt), location.timezone)}. Join it then: a place in the
          line is what lets you pick a time.
        </p>
      </div>
    );
  }
  if (isLoading) return null;
  if (ticket?.status === 'admitted' && ticket.admittedUntil) {
    return (
      <div className={box} data-testid="queue-step-notice" data-state="admitted">
        <AdmissionNotice admittedUntil={ticket.admittedUntil} timezone={location.timezone} centre={location.name} />
      </div>
    );
  }
  if (ticket && (ticket.status === 'waiting' || ticket.status === 'before_open' || ticket.status === 'sold_out')) {
    return (
      <div className={box} data-testid="queue-step-notice" data-state="in-line">
        <p className="font-semibold">
          {ticket.status === 'sold_out'
            ? `${location.name} is sold out for now.`
            : `You are in ${location.name}'s waiting room${ticket.position ? `, place ${ticket.position}` : ''}.`}
        </p>
        <p className="text-sm text-ink-700">You can pick a time once we let you in. We tell you in the waiting room.</p>
        {toLine('Back to the waiting room')}
      </div>
    );
  }
  if (ticket?.status === 'closed') return null;
  // No ticket (404) or it could not be read: the hold would be refused without a place in the line.
  return (
    <div className={box} data-testid="queue-step-notice" data-state={isError ? 'not-in-line' : 'unknown'}>
      <p className="font-semibold">{location.name} opens bookings through a waiting room, and you are not in it yet.</p>
      <p className="text-sm text-ink-700">
        You need a place in the line to pick a time. Places are drawn at random when bookings open, and we let families
        in while sessions are left.
      </p>
      {toLine('Join the waiting room')}
    </div>
  );
}
