import { MAX_PACKAGES } from '@kringle/contracts/cart';
import type { ReactNode } from 'react';
import { formatAud } from '@kringle/contracts/money';
import { Button } from '../../../components/ui/button';
import { useWizardDispatch, useWizardSelector } from '../booking-hooks';
import { nextStep, prevStep } from '../booking-slice';
import { setItemQuantity } from '../checkout/cart-actions';
import { cartTotalCents, maxQuantityFor, packageCount, type CatalogueItem } from '../checkout/cart-math';
import { QuantityStepper } from '../checkout/quantity-stepper';
import { useCatalogue } from '../checkout/use-catalogue';
import { useOrderPlaced } from '../checkout/use-order-placed';
import { LoadingList, LoadProblem } from './load-states';
import { StepFrame } from './step-frame';

/** Step 4: photo packages (at least one, up to three) and extras, with live line and cart totals. */
export function PackageStep({ focusOnMount }: { focusOnMount: boolean }) {
  const dispatch = useWizardDispatch();
  const packages = useWizardSelector((s) => s.booking.packages);
  const placed = useOrderPlaced();
  const catalogue = useCatalogue();
  const chosenPackages = packageCount(packages);
  const quantityOf = (id: string) => (packages[id] && !packages[id].remove ? packages[id].totalQuantity : 0);
  const change = (item: CatalogueItem, quantity: number) => void dispatch(setItemQuantity({ item, quantity, catalogue: catalogue.catalogue }));

  const row = (item: CatalogueItem, extra?: ReactNode) => {
    const quantity = quantityOf(item.id);
    return (
      <li key={item.id} data-testid={`item-${item.id}`} className={'flex flex-col gap-3 rounded-2xl border-2 bg-cream-50 p-4 ' + (quantity > 0 ? 'border-festive-700' : 'border-cream-300')}>
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h4 className="text-lg font-semibold text-ink-900">{item.name}</h4>
            <p className="text-ink-700">{item.description}</p>
          </div>
          <p className="shrink-0 text-lg font-semibold tabular-nums text-ink-900">{formatAud(item.priceCents)}</p>
        </div>
        {extra}
        <div className="flex flex-wrap items-center justify-between gap-2">
          <QuantityStepper name={item.name} quantity={quantity} max={maxQuantityFor(item, packages)} disabled={placed} onChange={(q) => change(item, q)} />
          <p className="text-sm text-ink-600" aria-live="polite">
            {quantity > 0 ? (
              <>
                {quantity} × {formatAud(item.priceCents)} = <span className="font-semibold tabular-nums text-ink-900">{formatAud(item.priceCents * quantity)}</span>
              </>
            ) : (
              'Not added'
            )}
          </p>
        </div>
      </li>
    );
  };

  return (
    <StepFrame
      title="Choose your photo package"
      intro="Pick at least one package; add extras if you like. Prices are in Australian dollars and include GST."
      focusOnMount={focusOnMount}
      actions={
        <>
          <Button variant="ghost" onClick={() => dispatch(prevStep())}>
            Back
          </Button>
          <Button className="sm:min-w-48" disabled={chosenPackages < 1} onClick={() => dispatch(nextStep())}>
            Continue
          </Button>
        </>
      }
    >
      {placed && <p className="rounded-2xl bg-gold-300/30 p-4 text-ink-900">Your order is ready for payment, so the packages can no longer be changed.</p>}
      {catalogue.isLoading && <LoadingList label="Loading packages" rows={3} />}
      {catalogue.isError && <LoadProblem what="the packages" onRetry={() => void catalogue.refetch()} />}
      {!catalogue.isLoading && !catalogue.isError && (
        <>
          <section aria-labelledby="packages-heading" className="flex flex-col gap-3">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3">
              <h3 id="packages-heading" className="text-xl font-semibold text-ink-900">
                Photo packages
              </h3>
              <p className="text-sm text-ink-600">
                {chosenPackages} of up to {MAX_PACKAGES} chosen
              </p>
            </div>
            <ul className="flex flex-col gap-3">
              {catalogue.packages.map((item) =>
                row(
                  item,
                  item.includes.length > 0 && (
                    <ul className="flex list-disc flex-col gap-0.5 pl-5 text-sm text-ink-700 marker:text-gold-500">
                      {item.includes.map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                    </ul>
                  ),
                ),
              )}
            </ul>
          </section>
          {catalogue.addOns.length > 0 && (
            <section aria-labelledby="addons-heading" className="flex flex-col gap-3">
              <h3 id="addons-heading" className="text-xl font-semibold text-ink-900">
                Extras
              </h3>
              <ul className="flex flex-col gap-3">{catalogue.addOns.map((item) => row(item))}</ul>
            </section>
          )}
          {chosenPackages < 1 && (
            <p className="text-ink-700" role="status">
              Choose a package to continue.
            </p>
          )}
          <p className="sr-only" aria-live="polite">
            Total {formatAud(cartTotalCents(packages))}
          </p>
        </>
      )}
    </StepFrame>
  );
}
