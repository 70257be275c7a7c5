import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import type { BookingDetails } from '@kringle/contracts/booking-details';
import { useNavigate } from 'react-router';
import { formatSessionTime } from '@kringle/contracts/dates';
import { zoneLabel } from '../../../lib/zone-label';
import { formatAud } from '@kringle/contracts/money';
import { Button } from '../../../components/ui/button';
import { useGetSlotQuery } from '../api';
import { useWizardDispatch, useWizardSelector, useWizardStore } from '../state/booking-hooks';
import { setDetails } from '../state/booking-slice';
import { useStepBack } from '../shell/use-step-history';
import { activeItems } from '../checkout/cart-math';
import { CartTotals } from '../checkout/cart-totals';
import { placeOrder, PRICE_CODES, PROMO_INVALID, VOUCHER_INVALID } from '../checkout/checkout-actions';
import { PromoCodeField } from '../checkout/promo-code-field';
import { VoucherField } from '../checkout/voucher-field';
import { amountDue } from '../checkout/amount-due';
import { DonationChoice } from '../checkout/donation-choice';
import { CreditChoice } from '../checkout/credit-choice';
import { useCatalogue } from '../checkout/use-catalogue';
import { BusinessBuyerFields, checkBusiness, draftOf, type BusinessErrors } from '../checkout/business-buyer';
import { expiredState } from '../hold/hold-actions';
import { StepFrame } from './step-frame';

// The form, its validation library and the shared schema load with this step, not with /create-booking.
const WhosComingSection = lazy(() => import('../../../components/whos-coming/whos-coming-section'));
const DETAILS_FORM = 'whos-coming';

/** Step 6: everything at a glance; Continue prices the cart on the server and places the order. */
export function OverviewStep({ focusOnMount }: { focusOnMount: boolean }) {
  const dispatch = useWizardDispatch();
  const back = useStepBack();
  const navigate = useNavigate();
  const { location, slotType, reservationData, packages, details } = useWizardSelector((s) => s.booking);
  const checkoutData = useWizardSelector((s) => s.booking.checkoutData);
  const [business, setBusiness] = useState(() => draftOf(checkoutData?.business));
  const [businessErrors, setBusinessErrors] = useState<BusinessErrors>({});
  const store = useWizardStore();
  const slot = useGetSlotQuery(
    { locationId: location?.id ?? '', slotId: reservationData?.slotId ?? '' },
    { skip: !location || !reservationData },
  );
  const { catalogue } = useCatalogue();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ message: string; prices: boolean } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<{ path: string; message: string }[]>();
  const [promoError, setPromoError] = useState<string | null>(null);
  const promoBox = useRef<HTMLDivElement>(null);
  const [voucherError, setVoucherError] = useState<string | null>(null);
  const voucherBox = useRef<HTMLDivElement>(null);
  // Nothing left for the card (vouchers, credit or a code pay it all): Continue confirms the booking itself.
  const nothingToPay = useWizardSelector(
    (s) => activeItems(s.booking.packages).length > 0 && amountDue(s.booking).dueCents === 0,
  );
  // Continue submits the "Who's coming" form, so it waits until that form (a lazy chunk) is in the page.
  const [formReady, setFormReady] = useState(false);
  const onFormMounted = useCallback(() => setFormReady(true), []);
  const lines = activeItems(packages);
  const timezone = location?.timezone ?? 'Australia/Sydney';
  const holdExpired = () => void navigate('/expired', expiredState(store.getState().timer.remaining));

  // Runs only once the "Who's coming" form is valid: Payment needs it.
  const proceed = async (given: BookingDetails) => {
    // Checked here as the API checks it (the ABN's checksum too), so a mistyped ABN is said beside the field.
    const buyer = checkBusiness(business);
    setBusinessErrors(buyer.ok ? {} : buyer.errors);
    if (!buyer.ok) {
      // The first field refused takes the focus once it shows its error (and scrolls into view with it).
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('[aria-labelledby="business-buyer"] [aria-invalid="true"]')?.focus(),
      );
      return;
    }
    setBusy(true);
    setProblem(null);
    dispatch(setDetails(given));
    const result = await dispatch(placeOrder({ catalogue, details: given, business: buyer.business }));
    setBusy(false);
    if (placeOrder.rejected.match(result)) {
      const error = result.payload?.data;
      if (error?.code === 'HOLD_EXPIRED') return holdExpired();
      if (error?.code === PROMO_INVALID) {
        // The code was dropped (used up meanwhile, say): the reason beside its field, the full price shown.
        setPromoError(error.error);
        return promoBox.current?.scrollIntoView?.({ block: 'center' });
      }
      if (error?.code === VOUCHER_INVALID) {
        // A voucher spent meanwhile: off it came (or it is priced again), the reason beside the vouchers.
        setVoucherError(error.error);
        return voucherBox.current?.scrollIntoView?.({ block: 'center' });
      }
      if (error?.details?.length) setFieldErrors(error.details);
      const prices = PRICE_CODES.includes(error?.code ?? '');
      setProblem({
        prices,
        message: prices
          ? `${error?.error ?? 'Some prices have changed.'} We have updated your cart with today's prices: please ` +
            `check the new total below.`
          : (error?.error ?? 'We could not place your order. Please try again.'),
      });
    }
  };

  return (
    <StepFrame
      title="Check your booking"
      intro="Make sure everything is right before you pay."
      focusOnMount={focusOnMount}
      actions={
        <>
          <Button variant="ghost" onClick={back} disabled={busy}>
            Back
          </Button>
          <Button
            type="submit"
            form={DETAILS_FORM}
            className="sm:min-w-56"
            disabled={busy || lines.length === 0 || !formReady}
          >
            {busy
              ? nothingToPay
                ? 'Confirming…'
                : 'Preparing payment…'
              : nothingToPay
                ? 'Confirm booking'
                : 'Continue to payment'}
          </Button>
        </>
      }
    >
      {problem && (
        <p
          role="alert"
          className={
            'rounded-2xl border p-4 font-medium ' +
            (problem.prices
              ? 'border-gold-400 bg-gold-300/30 text-ink-900'
              : 'border-festive-100 bg-festive-50 text-festive-800')
          }
        >
          {problem.message}
        </p>
      )}
      <dl className="grid gap-x-6 gap-y-4 rounded-2xl border border-cream-300 bg-cream-50 p-4 sm:grid-cols-2 sm:p-5">
        <div>
          <dt className="text-sm text-ink-600">Location</dt>
          <dd className="font-semibold text-ink-900">{location?.name}</dd>
          <dd className="text-sm text-ink-700">{location?.address}</dd>
        </div>
        <div>
          <dt className="text-sm text-ink-600">Session</dt>
          <dd className="font-semibold text-ink-900" data-testid="overview-session">
            {slot.currentData ? formatSessionTime(slot.currentData.startAt, timezone) : '…'}
          </dd>
          <dd className="text-sm text-ink-700">
            {slotType[0]?.name}
            {slotType[0] ? `, ${slotType[0].durationMinutes} minutes` : ''} ({zoneLabel(timezone, null)})
          </dd>
        </div>
      </dl>
      <section aria-labelledby="overview-items" className="rounded-2xl border border-cream-300 bg-cream-50 p-4 sm:p-5">
        <h3 id="overview-items" className="mb-2 text-xl font-semibold text-ink-900">
          Your order
        </h3>
        <ul className="flex flex-col divide-y divide-cream-200">
          {lines.map((line) => (
            <li key={line._id} className="flex justify-between gap-3 py-2">
              <span className="text-ink-900">
                {line.totalQuantity} × {catalogue.get(line._id)?.name ?? 'Item'}
              </span>
              <span className="shrink-0 tabular-nums text-ink-900">{formatAud(line.totalPrice)}</span>
            </li>
          ))}
        </ul>
        <CartTotals large totalTestId="overview-total" />
        <div ref={promoBox}>
          <PromoCodeField
            locked={Boolean(checkoutData)}
            error={promoError}
            onError={setPromoError}
            onHoldExpired={holdExpired}
          />
        </div>
        {/* What is bought first (a promo, a donation), then how it is paid (vouchers, then credit). */}
        <DonationChoice locked={Boolean(checkoutData)} />
        <div ref={voucherBox}>
          <VoucherField
            locked={Boolean(checkoutData)}
            error={voucherError}
            onError={setVoucherError}
            onPromoError={setPromoError}
            onHoldExpired={holdExpired}
          />
        </div>
        <CreditChoice locked={Boolean(checkoutData)} />
      </section>
      <Suspense fallback={<div className="h-40 animate-pulse rounded-2xl bg-cream-200" aria-hidden="true" />}>
        <WhosComingSection
          formId={DETAILS_FORM}
          allowsPets={slotType[0]?.allowsPets ?? false}
          current={details ?? null}
          onValid={proceed}
          serverErrors={fieldErrors}
          onMounted={onFormMounted}
        />
      </Suspense>
      <BusinessBuyerFields
        draft={business}
        errors={businessErrors}
        locked={Boolean(checkoutData)}
        onChange={setBusiness}
      />
    </StepFrame>
  );
}
