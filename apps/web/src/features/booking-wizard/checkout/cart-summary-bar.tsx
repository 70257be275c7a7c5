import { useLayoutEffect, useState } from 'react';
import { formatAud } from '@kringle/contracts/money';
import { GiftIcon } from '../../../components/ui/icons';
import { useWizardDispatch, useWizardSelector } from '../booking-hooks';
import { setShowCart } from '../booking-slice';
import { cartTotalCents, itemCount } from './cart-math';

/**
 * Where the bar sticks: right under the hold countdown, which sticks under the phone header.
 * At the bottom it would sit under the floating Help button, which spec §2 keeps on this page.
 */
function useStickBelowCountdown() {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const countdown = document.querySelector<HTMLElement>('[data-testid="hold-countdown"]');
    if (!countdown) return;
    // On wider screens both are rounded cards: leave a small gap between them.
    const measure = () => setTop((parseFloat(getComputedStyle(countdown).top) || 0) + countdown.offsetHeight + (window.innerWidth >= 640 ? 6 : 0));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(countdown);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, []);
  return top;
}

/**
 * The running total, kept in view from the Package step on (DESIGN.md: the countdown and the
 * total always in view), and the way to open the cart from any later step.
 */
export function CartSummaryBar() {
  const dispatch = useWizardDispatch();
  const packages = useWizardSelector((s) => s.booking.packages);
  const count = itemCount(packages);
  const total = cartTotalCents(packages);
  const top = useStickBelowCountdown();
  return (
    <div
      data-testid="cart-total-bar"
      style={{ top }}
      className="sticky z-10 -mx-4 -mt-5 border-b border-cream-300 bg-cream-50 px-4 py-1 shadow-sm sm:mx-0 sm:-mt-3 sm:rounded-2xl sm:border sm:shadow-[0_-6px_0_0_var(--color-cream-100),0_1px_2px_0_rgb(0_0_0/0.05)]"
    >
      <div className="flex items-center justify-between gap-2">
        <p className="flex items-baseline gap-1.5 whitespace-nowrap">
          <span className="text-sm text-ink-600">Total</span>
          <span className="text-lg font-semibold tabular-nums text-ink-900" data-testid="cart-total">
            {formatAud(total)}
          </span>
          <span className="sr-only">including GST</span>
        </p>
        <button
          type="button"
          onClick={() => dispatch(setShowCart(true))}
          className="inline-flex min-h-11 shrink-0 items-center gap-1.5 whitespace-nowrap rounded-xl px-2 font-semibold text-festive-700 hover:bg-cream-200 sm:gap-2 sm:px-3"
        >
          <GiftIcon aria-hidden="true" className="size-5" />
          View cart
          <span className="min-w-6 rounded-full bg-festive-700 px-1.5 py-0.5 text-center text-sm text-cream-50 tabular-nums" aria-label={`${count} item${count === 1 ? '' : 's'}`}>
            {count}
          </span>
        </button>
      </div>
    </div>
  );
}
