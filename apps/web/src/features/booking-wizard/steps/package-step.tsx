import { MAX_PACKAGES } from '@kringle/contracts/cart';
import type { Package } from '@kringle/contracts/catalogue';
import { formatAud } from '@kringle/contracts/money';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { nextStep } from '../state/booking-slice';
import { useStepBack } from '../shell/use-step-history';
import { setItemQuantity } from '../checkout/cart-actions';
import { cartTotalCents, maxQuantityFor, packageCount, type CatalogueItem } from '../checkout/cart-math';
import { useCatalogue } from '../checkout/use-catalogue';
import { useOrderPlaced } from '../checkout/use-order-placed';
import { AddOnRow, ExtraPackages, MainPackageChoice, OrderSummary } from './package-choices';
import { LoadingList, LoadProblem } from './load-states';
import { StepFrame } from './step-frame';
import { useWideLayout } from '../shell/use-media';

/**
 * Step 4: one main package, chosen like one thing (radio cards); another package only as an
 * explicit addition; extras with steppers; a running order beside the choices on wide screens.
 * The cart is the same lines as before (packages 1 to 3 in total, add-ons 0 to 10).
 */
export function PackageStep({ focusOnMount }: { focusOnMount: boolean }) {
  const dispatch = useWizardDispatch();
  const back = useStepBack();
  const packages = useWizardSelector((s) => s.booking.packages);
  const placed = useOrderPlaced();
  const catalogue = useCatalogue();
  const chosenPackages = packageCount(packages);
  const quantityOf = (id: string) => (packages[id] && !packages[id].remove ? packages[id].totalQuantity : 0);
  const change = (item: CatalogueItem, quantity: number) =>
    void dispatch(setItemQuantity({ item, quantity, catalogue: catalogue.catalogue }));
  // Which package is the main one is the family's choice; a cart restored from before names none: its first package is.
  const [mainChoice, setMainChoice] = useState<string | null>(null);
  const inCart = catalogue.packages.filter((p) => quantityOf(p.id) > 0);
  const mainId = mainChoice && quantityOf(mainChoice) > 0 ? mainChoice : (inCart[0]?.id ?? null);
  const extras = catalogue.packages.filter((p) => p.id !== mainId);
  const [showExtras, setShowExtras] = useState(() => inCart.length > 1);
  const total = cartTotalCents(packages);
  const wide = useWideLayout();

  const chooseMain = (item: Package) => {
    // The old main package goes (it was chosen as "the one"); the new one stays as it was if already added.
    if (mainId && mainId !== item.id) change(catalogue.catalogue.get(mainId)!, 0);
    if (quantityOf(item.id) === 0) change(item, 1);
    setMainChoice(item.id);
  };

  // One Continue on screen at a time: in the summary beside the choices on wide screens, else with Back.
  const continueButton = (where: string) => (
    <Button className={where} disabled={chosenPackages < 1} onClick={() => dispatch(nextStep())}>
      Continue
    </Button>
  );

  return (
    <StepFrame
      title="Choose your photo package"
      intro={
        'Pick one package; add another or some extras if you like. Prices are in Australian dollars and include ' +
        'GST.'
      }
      focusOnMount={focusOnMount}
      actions={
        <>
          <Button variant="ghost" onClick={back}>
            Back
          </Button>
          {!wide && continueButton('sm:min-w-48')}
        </>
      }
    >
      {placed && (
        <p className="rounded-2xl bg-gold-300/30 p-4 text-ink-900">
          Your order is ready for payment, so the packages can no longer be changed.
        </p>
      )}
      {catalogue.isLoading && <LoadingList label="Loading packages" rows={3} />}
      {catalogue.isError && <LoadProblem what="the packages" onRetry={() => void catalogue.refetch()} />}
      {!catalogue.isLoading && !catalogue.isError && (
        <div className={wide ? 'grid grid-cols-[minmax(0,1fr)_18rem] items-start gap-6' : 'flex flex-col gap-6'}>
          <div className="flex flex-col gap-6">
            <MainPackageChoice packages={catalogue.packages} mainId={mainId} disabled={placed} onChoose={chooseMain} />
            {mainId && extras.length > 0 && (
              <section aria-labelledby="more-packages-heading" className="flex flex-col gap-3">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <h3 id="more-packages-heading" className="text-xl font-semibold text-ink-900">
                    Another package as well?
                  </h3>
                  <p className="text-sm text-ink-600">
                    {chosenPackages} of up to {MAX_PACKAGES} packages
                  </p>
                </div>
                <p className="text-ink-700">
                  Only if you want a second set, say for grandparents: your package above already has its photos.
                </p>
                {showExtras ? (
                  <ExtraPackages
                    packages={extras}
                    quantityOf={quantityOf}
                    canAdd={(item) => maxQuantityFor(item, packages) > 0}
                    disabled={placed}
                    onToggle={(item, add) => change(item, add ? 1 : 0)}
                  />
                ) : (
                  <Button
                    variant="secondary"
                    className="w-fit"
                    aria-expanded={false}
                    onClick={() => setShowExtras(true)}
                  >
                    Add another package
                  </Button>
                )}
              </section>
            )}
            {catalogue.addOns.length > 0 && (
              <section aria-labelledby="addons-heading" className="flex flex-col gap-3">
                <h3 id="addons-heading" className="text-xl font-semibold text-ink-900">
                  Extras and more prints
                </h3>
                <ul className="flex flex-col gap-3">
                  {catalogue.addOns.map((item) => (
                    <AddOnRow
                      key={item.id}
                      item={item}
                      quantity={quantityOf(item.id)}
                      max={maxQuantityFor(item, packages)}
                      disabled={placed}
                      onChange={(q) => change(item, q)}
                    />
                  ))}
                </ul>
              </section>
            )}
            {chosenPackages < 1 && (
              <p className="text-ink-700" role="status">
                Choose a package to continue.
              </p>
            )}
          </div>
          {wide && (
            <div className="sticky top-36">
              <OrderSummary
                packages={packages}
                catalogue={catalogue.catalogue}
                total={total}
                action={continueButton('w-full')}
              />
            </div>
          )}
          <p className="sr-only" aria-live="polite">
            Total {formatAud(total)}
          </p>
        </div>
      )}
    </StepFrame>
  );
}
