import { useEffect, useRef, useState } from 'react';
import { formatAud } from '@kringle/contracts/money';
import type { Gallery, PhotoCheckout } from '@kringle/contracts/photos';
import { CardPayment } from '../../../components/card-payment/card-payment';
import type { ConfirmOutcome } from '../../../components/card-payment/sandbox-confirm';
import { Button } from '../../../components/ui/button';
import type { ApiError } from '../../../lib/api-error';
import { useCheckoutPhotosMutation } from './api';

const plural = (n: number) => `${n} photo${n === 1 ? '' : 's'}`;

/**
 * Stripe tells the API by webhook, a moment after the card is accepted: the gallery is asked again until the photos
 * show unlocked.
 */
const POLL_MS = 1000;
const POLL_TRIES = 20;

/**
 * "Buy more" (decision 0065): the locked photos the family picked, priced, then paid with the
 * same card form as the booking wizard. The order is made when they go on to pay; asking again
 * for the same photos (a declined card, a second tap) is the same order at the API.
 */
export function BuyPhotos({
  bookingId,
  gallery,
  photoIds,
  onPaying,
  onDone,
  refetch,
}: {
  bookingId: string;
  gallery: Gallery;
  photoIds: string[];
  /** The order is open: the choice of photos stays as it is until it is paid or dropped. */
  onPaying: (paying: boolean) => void;
  /** Paid and unlocked: the order's id, for its tax invoice. */
  onDone: (orderId: string) => void;
  refetch: () => void;
}) {
  const [checkout, started] = useCheckoutPhotosMutation();
  const [order, setOrder] = useState<PhotoCheckout | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [paid, setPaid] = useState(false);
  const tries = useRef(0);
  const price = gallery.extraPhotoPriceCents ?? 0;
  const total = price * photoIds.length;

  // Paid: ask for the gallery again until every photo bought shows unlocked.
  const unlockedNow = photoIds.every((id) => gallery.items.find((p) => p.id === id)?.unlocked);
  useEffect(() => {
    if (!paid) return;
    if (unlockedNow) {
      if (order) onDone(order.orderId);
      return;
    }
    const timer = window.setTimeout(() => {
      tries.current += 1;
      if (tries.current <= POLL_TRIES) refetch();
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [paid, unlockedNow, gallery, refetch, onDone, order]);

  const start = async () => {
    setProblem(null);
    const result = await checkout({ bookingId, photoIds });
    if (result.error)
      return setProblem((result.error as ApiError).data?.error ?? 'We could not start the payment. Please try again.');
    setOrder(result.data);
    onPaying(true);
  };
  const drop = () => {
    setOrder(null);
    setProblem(null);
    onPaying(false);
  };
  const outcome = (o: ConfirmOutcome) => {
    if (o.kind === 'succeeded' || o.kind === 'processing') {
      tries.current = 0;
      setPaid(true);
      refetch();
      return;
    }
    if (o.kind === 'redirect') return void window.location.assign(o.url);
    setProblem(o.message);
  };

  if (paid) {
    return (
      <div role="status" className="rounded-xl bg-pine-50 p-3 font-semibold text-pine-800">
        {unlockedNow
          ? `Thank you: ${plural(photoIds.length)} unlocked.`
          : `Payment received. Unlocking ${plural(photoIds.length)}…`}
      </div>
    );
  }
  return (
    <section
      aria-labelledby="buy-more-title"
      className="flex flex-col gap-3 rounded-xl border border-cream-300 bg-cream-50 p-3"
    >
      <h3 id="buy-more-title" className="font-semibold text-ink-900">
        Buy {plural(photoIds.length)}
      </h3>
      <p className="flex items-baseline justify-between gap-3 text-ink-700">
        <span>
          {plural(photoIds.length)} × {formatAud(price)} (incl. GST)
        </span>
        <span className="text-lg font-semibold tabular-nums text-ink-900">{formatAud(total)}</span>
      </p>
      {problem && (
        <div role="alert" className="rounded-xl bg-festive-50 p-3 text-festive-900">
          <p className="font-semibold">Payment not completed</p>
          <p>{problem}</p>
          {order && (
            <p className="mt-1 text-sm text-ink-700">
              You have not been charged. Check the details or use another card, then press Pay again.
            </p>
          )}
        </div>
      )}
      {!order ? (
        <Button
          className="self-start"
          disabled={started.isLoading}
          aria-busy={started.isLoading}
          onClick={() => void start()}
        >
          {started.isLoading ? 'Starting…' : `Pay for ${plural(photoIds.length)}`}
        </Button>
      ) : (
        <>
          <CardPayment
            clientSecret={order.client_secret}
            returnUrl={window.location.href}
            payLabel={`Pay ${formatAud(order.amountCents)}`}
            onOutcome={outcome}
            onBusy={(b) => b && setProblem(null)}
          />
          <Button variant="ghost" className="self-start" onClick={drop}>
            Change the photos
          </Button>
        </>
      )}
    </section>
  );
}
