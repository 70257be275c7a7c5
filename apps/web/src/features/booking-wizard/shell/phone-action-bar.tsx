import type { ReactNode } from 'react';
import { formatAud } from '@kringle/contracts/money';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { selectActiveStep, setShowCart } from '../state/booking-slice';
import { amountDue } from '../checkout/amount-due';
import { itemCount } from '../checkout/cart-math';
import { stepIndex } from '../state/wizard-steps';

/**
 * The phone wizard's bottom bar (issue 17): the running total (from the Package step on, with the
 * way into the cart) and the step's actions, fixed just above the tab bar so Continue is never
 * below the fold. The page leaves room under its content for both bars.
 */
export function PhoneActionBar({ children }: { children: ReactNode }) {
  const dispatch = useWizardDispatch();
  const step = useWizardSelector(selectActiveStep);
  const hasHold = useWizardSelector((s) => s.booking.reservationData !== null);
  const booking = useWizardSelector((s) => s.booking);
  const showTotal = hasHold && step >= stepIndex('package');
  const count = itemCount(booking.packages);
  const total = formatAud(amountDue(booking).dueCents);
  return (
    <div
      data-testid="phone-action-bar"
      className={
        'fixed inset-x-0 bottom-[calc(3.5rem+1px+env(safe-area-inset-bottom))] z-20 border-t ' +
        'border-cream-300 bg-cream-50 px-4 py-2 shadow-[0_-2px_8px_rgb(0_0_0/0.06)]'
      }
    >
      <div className="mx-auto flex max-w-3xl items-center gap-2">
        {showTotal && (
          <button
            type="button"
            onClick={() => dispatch(setShowCart(true))}
            className={
              'flex min-h-11 shrink-0 flex-col items-start justify-center rounded-xl px-1 text-left ' +
              'leading-tight hover:bg-cream-200'
            }
            aria-label={`View cart: ${count} item${count === 1 ? '' : 's'}, total ` + `${total} including GST`}
          >
            <span className="text-lg font-semibold tabular-nums text-ink-900" data-testid="cart-total">
              {total}
            </span>
            <span className="whitespace-nowrap text-xs font-semibold text-festive-700">View cart ({count})</span>
          </button>
        )}
        {/* One line each on a 390 px phone ("Continue to payment" beside Back and the total); narrower phones
            may wrap. */}
        <div
          className={
            'ml-auto flex min-w-0 items-center gap-1 [&>button]:px-3 [&>button]:text-sm ' +
            'min-[375px]:[&>button]:whitespace-nowrap'
          }
        >
          {children}
        </div>
      </div>
    </div>
  );
}
