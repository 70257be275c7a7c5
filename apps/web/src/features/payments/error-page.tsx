import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button';
import { AlertIcon, ClockIcon } from '../../components/ui/icons';
import { serverNow } from '../../lib/server-clock';
import { formatCountdown, remainingSeconds } from '../../lib/timer';
import type { ApiError } from '../../lib/api-error';
import { useGetBookingQuery } from '../../lib/booking-api';
import { useContinuePaymentMutation } from './api';
import { ResultFrame } from './result-frame';

export interface RetryPayment {
  bookingId: string;
  client_secret: string;
  expiresAt: string;
}

type HoldState =
  | { kind: 'checking' }
  | { kind: 'live'; retry: RetryPayment }
  | { kind: 'ended' }
  | { kind: 'unknown'; message: string };

/** Seconds left until `expiresAt`, ticking once a second. */
function useSecondsLeft(expiresAt: string | null): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    if (!expiresAt) return;
    const id = window.setInterval(() => setNow(serverNow()), 1000);
    return () => window.clearInterval(id);
  }, [expiresAt]);
  return expiresAt ? remainingSeconds(expiresAt, now) : 0;
}

/**
 * /error: a payment that did not go through (declined, or the bank's check failed). Nothing was
 * charged. While the session's hold lives the customer can pay again (continue-payment);
 * afterwards, start again. The app decides where "retry" and "start again" lead.
 */
export function PaymentErrorPage({
  onRetry,
  onStartAgain,
}: {
  onRetry: (retry: RetryPayment) => void;
  onStartAgain: () => void;
}) {
  const [params] = useSearchParams();
  const bookingId = params.get('bookingId') ?? '';
  const [continuePayment] = useContinuePaymentMutation();
  const [hold, setHold] = useState<HoldState>(bookingId ? { kind: 'checking' } : { kind: 'ended' });
  const asked = useRef(false);

  // continue-payment is idempotent (same PaymentIntent): asking it tells whether the hold still lives.
  useEffect(() => {
    if (!bookingId || asked.current) return;
    asked.current = true;
    void continuePayment(bookingId).then((result) => {
      if ('data' in result && result.data) setHold({ kind: 'live', retry: { bookingId, ...result.data } });
      else {
        const error = (result as { error: ApiError }).error;
        if (error?.data?.code === 'HOLD_EXPIRED' || error?.data?.code === 'NOT_FOUND') setHold({ kind: 'ended' });
        else setHold({ kind: 'unknown', message: error?.data?.error ?? 'We could not check your booking.' });
      }
    });
  }, [bookingId, continuePayment]);

  // A payment that went through after all (a late webhook, another tab) belongs on /success.
  const booking = useGetBookingQuery(bookingId, {
    skip: !bookingId || hold.kind === 'live' || hold.kind === 'checking',
  });
  const secondsLeft = useSecondsLeft(hold.kind === 'live' ? hold.retry.expiresAt : null);
  const live = hold.kind === 'live' && secondsLeft > 0;

  if (booking.data?.status === 'completed')
    return <Navigate to={`/success?bookingId=${encodeURIComponent(bookingId)}`} replace />;

  const startAgain = (
    <Button onClick={onStartAgain} variant={live ? 'secondary' : 'primary'}>
      Start again
    </Button>
  );

  return (
    <ResultFrame
      title="Your payment didn't go through"
      icon={<AlertIcon />}
      tone="problem"
      actions={
        <>
          {live ? (
            startAgain
          ) : (
            <Link to="/bookings" className={buttonClasses('secondary')}>
              Go to My Bookings
            </Link>
          )}
          {live && hold.kind === 'live' ? (
            <Button onClick={() => onRetry(hold.retry)}>Try paying again</Button>
          ) : (
            startAgain
          )}
        </>
      }
    >
      <p>
        Your card has not been charged. This can happen when a bank declines a payment or its security check is not
        completed.
      </p>
      {hold.kind === 'checking' && <p role="status">Checking whether your session is still held…</p>}
      {live && (
        <p className="flex items-center justify-center gap-2 rounded-xl bg-gold-300/30 p-3 font-medium text-ink-900">
          <ClockIcon aria-hidden="true" className="size-5 shrink-0 text-gold-700" />
          <span>
            Your session is still held for{' '}
            <span className="font-mono tabular-nums">{formatCountdown(secondsLeft)}</span>. You can try again with the
            same or another card.
          </span>
        </p>
      )}
      {(hold.kind === 'ended' || (hold.kind === 'live' && !live)) && (
        <p>The hold on your session has ended, so it has gone back on sale. Please start again to choose a time.</p>
      )}
      {hold.kind === 'unknown' && <p>{hold.message} Please start again, or check My Bookings.</p>}
    </ResultFrame>
  );
}
