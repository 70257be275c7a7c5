import { formatAud } from '@kringle/contracts/money';
import { GiftIcon } from '../../../components/ui/icons';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { setShowCart } from '../state/booking-slice';
import { amountDue } from './amount-due';
import { itemCount } from './cart-math';

/**
 * The running total, kept in view from the Package step on (DESIGN.md: the countdown and the
 * total always in view), and the way to open the cart from any later step. It sticks with the
 * countdown, under it, in StickyHoldBars: at the bottom it would sit under the floating Help
 * button, which spec §2 keeps on this page.
 */
export function CartSummaryBar() {
  const dispatch = useWizardDispatch();
  const booking = useWizardSelector((s) => s.booking);
  const count = itemCount(booking.packages);
  const total = amountDue(booking).dueCents;
  return (
    <div
      data-testid="cart-total-bar"
      className="border-b border-cream-300 bg-cream-50 px-4 py-1 shadow-sm sm:rounded-2xl sm:border"
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
          className={
            'inline-flex min-h-11 shrink-0 items-center gap-1.5 whitespace-nowrap rounded-xl px-2 ' +
            'font-semibold text-festive-700 hover:bg-cream-200 sm:gap-2 sm:px-3'
          }
        >
          <GiftIcon aria-hidden="true" className="size-5" />
          View cart
          <span
            className="min-w-6 rounded-full bg-festive-700 px-1.5 py-0.5 text-center text-sm text-cream-50 tabular-nums"
            aria-label={`${count} item${count === 1 ? '' : 's'}`}
          >
            {count}
          </span>
        </button>
      </div>
    </div>
  );
}
