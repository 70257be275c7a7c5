import { formatAud } from '@kringle/contracts/money';
import { GiftIcon } from '../../../components/ui/icons';
import { useWizardDispatch, useWizardSelector } from '../booking-hooks';
import { setShowCart } from '../booking-slice';
import { cartTotalCents, itemCount } from './cart-math';

/**
 * The running total, stuck to the bottom of the screen from the Package step on (DESIGN.md:
 * the total always in view), and the way to open the cart from any later step.
 */
export function CartSummaryBar() {
  const dispatch = useWizardDispatch();
  const packages = useWizardSelector((s) => s.booking.packages);
  const count = itemCount(packages);
  const total = cartTotalCents(packages);
  return (
    <div
      data-testid="cart-total-bar"
      className="sticky bottom-[calc(57px+env(safe-area-inset-bottom))] z-10 -mx-4 border-t border-cream-300 bg-cream-50/95 px-4 py-2 shadow-[0_-4px_12px_rgba(43,33,24,0.08)] backdrop-blur sm:mx-0 sm:rounded-2xl sm:border min-[801px]:bottom-2"
    >
      <div className="flex items-center justify-between gap-3">
        <p className="flex flex-col leading-tight">
          <span className="text-sm text-ink-600">Total (incl. GST)</span>
          <span className="text-xl font-semibold tabular-nums text-ink-900" data-testid="cart-total">
            {formatAud(total)}
          </span>
        </p>
        <button
          type="button"
          onClick={() => dispatch(setShowCart(true))}
          className="inline-flex min-h-11 items-center gap-2 rounded-xl border border-cream-300 bg-cream-50 px-4 font-semibold text-ink-900 hover:border-festive-700 hover:text-festive-700"
        >
          <GiftIcon aria-hidden="true" className="size-5 text-festive-700" />
          View cart
          <span className="rounded-full bg-festive-700 px-2 py-0.5 text-sm text-cream-50 tabular-nums" aria-label={`${count} item${count === 1 ? '' : 's'}`}>
            {count}
          </span>
        </button>
      </div>
    </div>
  );
}
