import { useId } from 'react';
import type { Gallery } from '@kringle/contracts/photos';
import { Button } from '../../../components/ui/button';
import { isPhotoOrder, type BookingOrder } from '../api';

const plural = (n: number) => `${n} photo${n === 1 ? '' : 's'}`;

/**
 * The photos the family bought by card and still has (paid, not refunded in full): the gallery's
 * `included` counts them with the package's (API.md), so the package's own share is the rest.
 */
export function photosBought(
  orders: Pick<BookingOrder, 'items' | 'paidAt' | 'amountCents' | 'refundedCents'>[],
): number {
  return orders
    .filter((o) => isPhotoOrder(o) && o.paidAt !== null && o.refundedCents < o.amountCents)
    .reduce((n, o) => n + o.items.filter((i) => i.type === 'photo').reduce((m, i) => m + i.quantity, 0), 0);
}

/**
 * "3 of 5 chosen", that every photo is included, or, once some were bought, what came with the package and what was
 * bought.
 */
export function allowanceWords(g: Pick<Gallery, 'included' | 'unlocked'>, bought = 0): string {
  if (g.included === 'all') return 'Every photo is included in your package.';
  const extra = Math.min(bought, g.included);
  if (extra === 0) return `${g.unlocked} of ${g.included} chosen`;
  return `${g.unlocked} unlocked: ${g.included - extra} with your package, ${extra} bought`;
}

/** The line under the allowance: what is left to choose, or that the package's photos are all chosen. */
export function allowanceHint(g: Pick<Gallery, 'included' | 'unlocked'>, bought = 0): string | null {
  if (g.included === 'all') return null;
  const left = Math.max(0, g.included - g.unlocked);
  if (left > 0) return `Choose ${left} more to unlock: unlocked photos download without the watermark.`;
  const extra = Math.min(bought, g.included);
  return extra === 0
    ? 'You have unlocked every photo your package includes.'
    : `You have unlocked the ${plural(g.included - extra)} your package includes and the ${plural(extra)} you bought.`;
}

/**
 * Unlocking uses the package's allowance and cannot be undone (another photo cannot be chosen
 * instead), so the family sees which photos and what is left before it happens (issue 53 item 14).
 */
export function UnlockConfirm({
  numbers,
  leftAfter,
  busy,
  onConfirm,
  onCancel,
}: {
  numbers: number[];
  leftAfter: number;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const title = useId();
  const which =
    numbers.length === 1
      ? `photo ${numbers[0]}`
      : `photos ${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
  return (
    <section
      role="group"
      aria-labelledby={title}
      className="flex flex-col gap-3 rounded-xl border border-festive-700 bg-cream-50 p-3"
    >
      <h3 id={title} className="font-semibold text-ink-900">
        Unlock {which}?
      </h3>
      <p className="text-ink-700">
        {leftAfter === 0
          ? 'This uses the last of the photos your package includes'
          : `Your package will have ${plural(leftAfter)} left to choose`}
        . Unlocked photos stay unlocked: you cannot swap them for others later.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button disabled={busy} aria-busy={busy} onClick={onConfirm}>
          {busy ? 'Unlocking…' : `Yes, unlock ${plural(numbers.length)}`}
        </Button>
        <Button variant="secondary" disabled={busy} onClick={onCancel}>
          Not yet
        </Button>
      </div>
    </section>
  );
}
