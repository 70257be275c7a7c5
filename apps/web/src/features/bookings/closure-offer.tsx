import type { Booking } from '@kringle/contracts/bookings';
import { formatSessionTime } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import type { ApiError } from '../../lib/api-error';
import { toastSuccess } from '../../lib/deferred-toast';
import { useAnswerClosureMutation } from './api';
import { ClosureConfirm, type ClosureAnswer } from './closure-confirm';

/**
 * The brand closed this booking's session (decision 0055): why, and while the offer is open the
 * session held for the family, taken with one tap or turned into a refund of all that is left on
 * its order (the API's figure: part may have been refunded already, issue 53).
 */
export function ClosureOffer({ booking }: { booking: Booking }) {
  const id = useId();
  const [answer, state] = useAnswerClosureMutation();
  // Either answer changes the booking for good: asked first, with the new time or the amount (issue 53 item 8).
  const [asking, setAsking] = useState<ClosureAnswer | null>(null);
  const closure = booking.closure;
  if (!closure) return null;
  const tz = booking.location.timezone;
  const offer = closure.offer;
  if (!offer) {
    // Without an open offer the booking was either refunded or moved (the job takes seconds to reach it).
    return (
      <p className="rounded-xl bg-[#fff3e2] p-3 text-sm text-[#7a4100]">
        {booking.status === 'cancelled'
          ? `We had to close this session (${closure.reason}). We are sorry.`
          : `Moved here: we had to close the session you first booked (${closure.reason}).`}
      </p>
    );
  }
  const busy = state.isLoading ? state.originalArgs?.answer : null;
  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-3 rounded-xl border border-festive-700 bg-[#fff3e2] p-3 text-[#5c3100]"
    >
      <h4 id={id} className="font-semibold">
        We had to close this session ({closure.reason})
      </h4>
      <p className="text-sm">
        We are holding {formatSessionTime(offer.startAt, tz)} at {offer.locationName} for you until{' '}
        {formatSessionTime(offer.expiresAt, tz)}. Move your booking there, or take back all that is left to refund on
        it.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          className="flex-1 whitespace-nowrap sm:flex-none"
          disabled={state.isLoading}
          aria-busy={busy === 'accept'}
          onClick={() => setAsking('accept')}
        >
          {busy === 'accept' ? 'Moving…' : 'Move to this session'}
        </Button>
        <Button
          variant="secondary"
          className="flex-1 whitespace-nowrap sm:flex-none"
          disabled={state.isLoading}
          aria-busy={busy === 'refund'}
          onClick={() => setAsking('refund')}
        >
          {busy === 'refund' ? 'Refunding…' : `Refund me in full (${formatAud(offer.refundCents)})`}
        </Button>
      </div>
      <ClosureConfirm
        booking={booking}
        offer={offer}
        asking={asking}
        busy={state.isLoading}
        onClose={() => setAsking(null)}
        onAnswer={(a) =>
          void answer({ id: booking.id, answer: a }).then((result) => {
            setAsking(null);
            // Refunded, the booking leaves Upcoming: say what happened, as a cancellation does.
            if (!result.error && a === 'refund')
              void toastSuccess(
                `Booking ${booking.reference} is cancelled. ${formatAud(offer.refundCents)} is on its way back to ` +
                  `your card (allow 5 to 10 business days).`,
              );
          })
        }
      />
      {state.isError && (
        <p role="alert" className="text-sm font-semibold text-festive-800">
          {(state.error as ApiError | undefined)?.data?.error ?? 'That did not work. Please try again.'}
        </p>
      )}
    </section>
  );
}
