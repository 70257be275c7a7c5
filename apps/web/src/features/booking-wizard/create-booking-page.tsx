import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { pageTitle } from '../../lib/env';
import { useWizardDispatch, useWizardSelector } from './state/booking-hooks';
import { selectActiveStep } from './state/booking-slice';
import { useOpenedOnce } from '../../components/ui/use-opened-once';
import { CartSummaryBar } from './checkout/cart-summary-bar';
import { CountdownBar, StickyHoldBars } from './hold/countdown-bar';
import { ResumeHoldOffer } from './hold/resume-hold';
import { BookingLimitNotice } from '../../components/ui/booking-limit-notice';
import { useGetPolicyQuery } from '../../lib/policy-api';
import { useGetUpcomingBookingCountQuery } from './api';
import { useReleaseAsk } from './hold/release-ask';
import { LocationStep } from './steps/location-step';
import { LoadingList } from './steps/load-states';
import { usePhoneLayout } from './shell/use-media';
import { WizardStepper } from './shell/wizard-stepper';
import { useOfferLink } from './waitlist/offer-link';
import { popToStep } from './hold/hold-actions';
import { useStepHistory } from './shell/use-step-history';
import { RESCHEDULE_STEPS, stepIndex, WIZARD_STEPS } from './state/wizard-steps';

// The last step (and its card form) loads when the family reaches Overview, not with the wizard:
// the /create-booking initial-JS budget (decision 0013).
const loadPaymentStep = () => import('./steps/payment-step');
const PaymentStep = lazy(() => loadPaymentStep().then((m) => ({ default: m.PaymentStep })));

// The first step paints with the page; the others (and the cart sheet with Radix Dialog) load
// when the family first touches or types in the wizard, before they can have chosen a place
// and pressed Next. Loading them at once competed with the session restore and the page's
// data on a phone, and added to its blocking time (decision 0036).
const loadBookingTypeStep = () => import('./steps/booking-type-step');
const loadSessionTimeStep = () => import('./steps/session-time-step');
const loadPackageStep = () => import('./steps/package-step');
const loadTermsStep = () => import('./steps/terms-step');
const loadOverviewStep = () => import('./steps/overview-step');
const loadCartDrawer = () => import('./checkout/cart-drawer');
// The "Let go of …?" question (Radix Dialog) is asked only on Back from a held session.
const loadReleaseHoldDialog = () => import('./hold/release-hold-dialog');
const BookingTypeStep = lazy(() => loadBookingTypeStep().then((m) => ({ default: m.BookingTypeStep })));
const SessionTimeStep = lazy(() => loadSessionTimeStep().then((m) => ({ default: m.SessionTimeStep })));
const PackageStep = lazy(() => loadPackageStep().then((m) => ({ default: m.PackageStep })));
const TermsStep = lazy(() => loadTermsStep().then((m) => ({ default: m.TermsStep })));
const OverviewStep = lazy(() => loadOverviewStep().then((m) => ({ default: m.OverviewStep })));
const CartDrawer = lazy(() => loadCartDrawer().then((m) => ({ default: m.CartDrawer })));
const ReleaseHoldDialog = lazy(() => loadReleaseHoldDialog().then((m) => ({ default: m.ReleaseHoldDialog })));

let laterStepsRequested = false;
function preloadLaterSteps() {
  if (laterStepsRequested) return;
  laterStepsRequested = true;
  for (const load of [
    loadBookingTypeStep,
    loadSessionTimeStep,
    loadPackageStep,
    loadTermsStep,
    loadOverviewStep,
    loadCartDrawer,
    loadReleaseHoldDialog,
  ])
    void load().catch(() => undefined);
}

/**
 * /create-booking: the seven-step wizard (spec §2). The step shown is derived from the
 * booking state (selectActiveStep), never synced into it by an effect; the browser's history
 * follows it (useStepHistory).
 */
export function CreateBookingPage() {
  const step = useWizardSelector(selectActiveStep);
  const hasHold = useWizardSelector((s) => s.booking.reservationData !== null);
  const reschedule = useWizardSelector((s) => s.booking.rescheduleData);
  // A hold this tab let go of that the server kept, as the page opened (a reload): ResumeHoldOffer takes it back.
  const keptNow = useWizardSelector((s) => s.booking.keptHoldId ?? null);
  const [keptAtOpen] = useState(keptNow);
  const reference = typeof reschedule?.reference === 'string' ? reschedule.reference : '';
  const dispatch = useWizardDispatch();
  const { problem: offerProblem, opened: offerOpened, opening } = useOfferLink();
  useStepHistory(
    step,
    useCallback((target: number) => void dispatch(popToStep(target)), [dispatch]),
    opening,
  );
  // The route's title says Create Booking; a reschedule is not one (this runs after the route's title).
  useEffect(() => {
    if (reschedule) document.title = pageTitle('Reschedule Booking');
  }, [reschedule]);
  // Move focus to a step's heading once the step has changed, not on the page's first render.
  const [shownStep, setShownStep] = useState(step);
  const [moved, setMoved] = useState(false);
  if (shownStep !== step) {
    setShownStep(step);
    setMoved(true);
  }
  const focusOnMount = moved;
  const key = WIZARD_STEPS[step]?.key;
  const phone = usePhoneLayout();
  useStickyBarsScrollPadding(phone);
  const cartOpened = useOpenedOnce(useWizardSelector((s) => s.booking.showCart));
  const releaseAsked = useOpenedOnce(useReleaseAsk() !== null);
  useEffect(() => {
    if (key === 'overview') void loadPaymentStep();
  }, [key]);

  return (
    // On a phone the step's actions sit in a bar above the tab bar: the extra bottom room lets the content scroll clear
    // of it.
    <div
      className={
        `mx-auto flex w-full flex-col gap-5 px-4 pb-10 pt-4 max-[800px]:pb-24 sm:px-8 sm:pt-8 ` +
        `${key === 'package' ? 'max-w-5xl' : 'max-w-3xl'}`
      }
      onPointerDownCapture={preloadLaterSteps}
      onKeyDownCapture={preloadLaterSteps}
    >
      {reschedule ? (
        <>
          <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">Reschedule Booking</h1>
          {reference && (
            <p className="-mt-3 text-ink-700">Booking {reference}: same place, packages and price, a new time.</p>
          )}
          <WizardStepper
            current={Math.max(
              0,
              RESCHEDULE_STEPS.findIndex((s) => s.key === key),
            )}
            steps={RESCHEDULE_STEPS}
          />
        </>
      ) : (
        <>
          <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">Create Booking</h1>
          <WizardStepper current={step} />
        </>
      )}
      {offerProblem && (
        <p
          role="alert"
          className="rounded-2xl border border-festive-100 bg-festive-50 p-4 font-medium text-festive-800"
        >
          {offerProblem}
        </p>
      )}
      {key === 'location' && !reschedule && <LimitUpFront />}
      {/* Before a session is held (a reload, another device, a tab that lost to another tab's checkout). */}
      {(key === 'location' || key === 'bookingType' || key === 'sessionTime') && !reschedule && (
        <ResumeHoldOffer keptAtOpen={keptAtOpen} />
      )}
      {offerOpened && hasHold && (
        <p role="status" className="rounded-2xl border border-pine-600/30 bg-pine-50 p-4 font-medium text-ink-900">
          {offerOpened}
        </p>
      )}
      {hasHold && (
        <StickyHoldBars>
          <CountdownBar />
          {/* On a phone the total is in the bottom bar, which leaves the top for the countdown alone. */}
          {step >= stepIndex('package') && !phone && <CartSummaryBar />}
        </StickyHoldBars>
      )}
      <div key={key}>
        {key === 'location' ? (
          <LocationStep focusOnMount={focusOnMount} />
        ) : (
          <Suspense
            fallback={
              <LoadingList label={key === 'payment' ? 'Loading the payment step' : 'Loading this step'} rows={2} />
            }
          >
            {key === 'bookingType' && <BookingTypeStep focusOnMount={focusOnMount} />}
            {key === 'sessionTime' && <SessionTimeStep focusOnMount={focusOnMount} />}
            {key === 'package' && <PackageStep focusOnMount={focusOnMount} />}
            {key === 'terms' && <TermsStep focusOnMount={focusOnMount} />}
            {key === 'overview' && <OverviewStep focusOnMount={focusOnMount} />}
            {key === 'payment' && <PaymentStep focusOnMount={focusOnMount} />}
          </Suspense>
        )}
      </div>
      {releaseAsked && (
        <Suspense fallback={null}>
          <ReleaseHoldDialog />
        </Suspense>
      )}
      {cartOpened && (
        <Suspense fallback={null}>
          <CartDrawer />
        </Suspense>
      )}
    </div>
  );
}

/** At the upcoming-bookings limit, the first step says so before a time is picked (issue 37 item 6). */
function LimitUpFront() {
  const count = useGetUpcomingBookingCountQuery().data ?? 0;
  return <BookingLimitNotice count={count} max={useGetPolicyQuery().data?.maxUpcomingBookings} />;
}

/**
 * Whatever the page scrolls into view (a message, the day's times, a focused field) lands clear of
 * the sticky header and countdown at the top and, on a phone, of the action and tab bars below.
 */
function useStickyBarsScrollPadding(phone: boolean) {
  useEffect(() => {
    const html = document.documentElement.style;
    html.scrollPaddingTop = phone ? '8.5rem' : '10rem';
    html.scrollPaddingBottom = phone ? '9rem' : '1rem';
    return () => {
      html.scrollPaddingTop = '';
      html.scrollPaddingBottom = '';
    };
  }, [phone]);
}
