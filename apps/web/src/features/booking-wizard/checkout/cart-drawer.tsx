import * as Dialog from '@radix-ui/react-dialog';
import { useEffect } from 'react';
import { formatAud } from '@kringle/contracts/money';
import { Button } from '../../../components/ui/button';
import { CloseIcon } from '../../../components/ui/icons';
import { track } from '../../../lib/analytics';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { goToStep, setShowCart } from '../state/booking-slice';
import { stepIndex } from '../state/wizard-steps';
import { removeFromCart, restoreToCart } from './cart-actions';
import { activeItems, ecommerce } from './cart-math';
import { CartTotals } from './cart-totals';
import { useCatalogue } from './use-catalogue';
import { useOrderPlaced } from './use-order-placed';

/**
 * The cart (spec §3 showCart) as a side sheet, openable from any step after Session: the lines, a
 * promo code's cents off, GST and total, removal with "Undo", and a way back to the Package step to
 * change quantities.
 * Once the order is placed (checkoutData), the cart is read-only: the booking is priced.
 */
export function CartDrawer() {
  const dispatch = useWizardDispatch();
  const open = useWizardSelector((s) => s.booking.showCart);
  const packages = useWizardSelector((s) => s.booking.packages);
  const placed = useOrderPlaced();
  const { catalogue } = useCatalogue();
  const lines = Object.values(packages).filter((line) => line.totalQuantity > 0);

  useEffect(() => {
    // view_cart once per opening, with what is in the cart at that moment.
    if (open) track('view_cart', ecommerce(activeItems(packages), catalogue));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the opening counts
  }, [open]);

  const close = () => dispatch(setShowCart(false));
  const change = () => {
    close();
    dispatch(goToStep(stepIndex('package')));
  };

  return (
    <Dialog.Root open={open} onOpenChange={(next) => dispatch(setShowCart(next))}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-ink-900/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className={
            'fixed inset-y-0 right-0 z-50 flex w-full max-w-md flex-col bg-cream-50 shadow-2xl ' + 'focus:outline-none'
          }
        >
          <div className="flex items-center justify-between border-b border-cream-200 px-5 py-4">
            <Dialog.Title className="font-display text-2xl font-semibold text-ink-900">Your cart</Dialog.Title>
            <Dialog.Close
              aria-label="Close cart"
              className="flex size-11 items-center justify-center rounded-full text-ink-600 hover:bg-cream-200"
            >
              <CloseIcon />
            </Dialog.Close>
          </div>
          <div className="flex-1 overflow-y-auto px-5 py-4">
            {lines.length === 0 ? (
              <p className="rounded-2xl bg-cream-200 p-4 text-ink-700">
                Your cart is empty. Choose a photo package to continue.
              </p>
            ) : (
              <ul className="flex flex-col divide-y divide-cream-200">
                {lines.map((line) => {
                  const name = catalogue.get(line._id)?.name ?? 'Item';
                  return (
                    <li
                      key={line._id}
                      className="flex items-center justify-between gap-3 py-3"
                      data-removed={line.remove}
                    >
                      <div className="min-w-0">
                        <p
                          className={line.remove ? 'font-medium text-ink-600 line-through' : 'font-medium text-ink-900'}
                        >
                          {line.totalQuantity} × {name}
                        </p>
                        <p className="text-sm text-ink-600">{line.remove ? 'Removed' : formatAud(line.totalPrice)}</p>
                      </div>
                      {!placed &&
                        (line.remove ? (
                          <Button
                            variant="ghost"
                            className="shrink-0"
                            onClick={() => void dispatch(restoreToCart({ id: line._id, catalogue }))}
                            aria-label={`Undo removing ${name}`}
                          >
                            Undo
                          </Button>
                        ) : (
                          <Button
                            variant="ghost"
                            className="shrink-0 !text-festive-700"
                            onClick={() => void dispatch(removeFromCart({ id: line._id, catalogue }))}
                            aria-label={`Remove ${name}`}
                          >
                            Remove
                          </Button>
                        ))}
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
          <div className="flex flex-col gap-3 border-t border-cream-200 px-5 py-4">
            <CartTotals />
            {placed ? (
              <p className="text-sm text-ink-600">
                Your order is ready for payment, so the cart can no longer be changed.
              </p>
            ) : (
              <Button variant="secondary" onClick={change}>
                Change packages and extras
              </Button>
            )}
            <Button onClick={close}>Keep going</Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
