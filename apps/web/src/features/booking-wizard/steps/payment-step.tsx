import { useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { formatAud } from '@kringle/contracts/money';
import { Button } from '../../../components/ui/button';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { goToStep } from '../state/booking-slice';
import { useStepBack } from '../shell/use-step-history';
import { useStripeConfigQuery } from '../../../components/card-payment/api';
import { PaymentProblem } from '../../../components/card-payment/payment-problem';
import { CardPayment } from '../../../components/card-payment/card-payment';
import type { ConfirmOutcome } from '../../../components/card-payment/sandbox-confirm';
import { amountDue } from '../checkout/amount-due';
import { stepIndex } from '../state/wizard-steps';
import { LoadingList, LoadProblem } from './load-states';
import { StepFrame } from './step-frame';
import { usePhoneLayout } from '../shell/use-media';

/** The card form, submitted from the phone bar's Pay. */
const PAY_FORM = 'payment-form';

const successPath = (bookingId: string) => `/success?bookingId=${encodeURIComponent(bookingId)}`;
/** Where the card's bank (3-D Secure) and Stripe send the customer back to. */
export const successUrl = (bookingId: string) => `${window.location.origin}${successPath(bookingId)}`;

/** Step 7: pay by card. Real Stripe's Payment Element with live keys, the sandbox card form otherwise. */
export function PaymentStep({ focusOnMount }: { focusOnMount: boolean }) {
  const dispatch = useWizardDispatch();
  const back = useStepBack();
  const navigate = useNavigate();
  const checkout = useWizardSelector((s) => s.booking.checkoutData);
  const booking = useWizardSelector((s) => s.booking);
  // What the card pays: the checkout's figure (less than the goods when a promo code applied).
  const total = checkout?.amountCents ?? amountDue(booking).dueCents;
  const config = useStripeConfigQuery();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const problemBox = useRef<HTMLDivElement>(null);
  // The reason is above the card form and Pay: bring it into view, clear of the sticky bars (html
  // scroll-padding). Pay was disabled while paying, which left focus on the page itself: focus the
  // reason, so a keyboard reaches the card fields with the next Tab.
  useEffect(() => {
    if (!problem) return;
    problemBox.current?.scrollIntoView?.({ block: 'nearest' });
    problemBox.current?.focus({ preventScroll: true });
  }, [problem]);
  const payLabel = `Pay ${formatAud(total)}`;
  const phone = usePhoneLayout();
  const payInBar = phone && !!checkout && !!config.data;

  const handle = (outcome: ConfirmOutcome) => {
    if (!checkout) return;
    if (outcome.kind === 'succeeded' || outcome.kind === 'processing')
      return void navigate(successPath(checkout.bookingId));
    // The bank's check happens on its own page; the wizard state is persisted, so the countdown resumes on return.
    if (outcome.kind === 'redirect') return void window.location.assign(outcome.url);
    setProblem(outcome.message);
  };
  const onBusy = (b: boolean) => {
    setBusy(b);
    if (b) setProblem(null);
  };

  // Nothing was left for the card (a 100% promo code): the checkout confirmed the booking already.
  if (checkout?.client_secret === null) return <Navigate to={successPath(checkout.bookingId)} replace />;

  return (
    <StepFrame
      title="Payment"
      intro={checkout?.message ?? 'Pay by card to confirm your booking.'}
      focusOnMount={focusOnMount}
      actions={
        <>
          <Button variant="ghost" onClick={back} disabled={busy}>
            Back
          </Button>
          {payInBar && (
            <Button type="submit" form={PAY_FORM} disabled={busy}>
              {busy ? 'Paying…' : payLabel}
            </Button>
          )}
        </>
      }
    >
      {!checkout && (
        <div className="flex flex-col items-start gap-3 rounded-2xl bg-cream-200 p-4 text-ink-700">
          <p>Your order is not ready for payment yet. Please check your booking first.</p>
          <Button variant="secondary" onClick={() => dispatch(goToStep(stepIndex('overview')))}>
            Check my booking
          </Button>
        </div>
      )}
      {checkout && (
        <div className="flex flex-col gap-4 rounded-2xl border border-cream-300 bg-cream-50 p-4 sm:p-6">
          <p className="flex items-baseline justify-between gap-3 border-b border-cream-200 pb-3">
            <span className="text-ink-700">Amount to pay (incl. GST)</span>
            <span className="text-2xl font-semibold tabular-nums text-ink-900">{formatAud(total)}</span>
          </p>
          {problem && <PaymentProblem ref={problemBox} problem={problem} testId="payment-problem" />}
          <CardPayment
            clientSecret={checkout.client_secret}
            returnUrl={successUrl(checkout.bookingId)}
            payLabel={payLabel}
            onOutcome={handle}
            formId={PAY_FORM}
            payInBar={payInBar}
            onBusy={onBusy}
            loading={<LoadingList label="Loading the payment form" rows={2} />}
            loadProblem={(retry) => <LoadProblem what="the payment form" onRetry={retry} />}
          />
          <p className="text-sm text-ink-600">
            Payments are processed securely by Stripe. We never see or store your full card number.
          </p>
        </div>
      )}
    </StepFrame>
  );
}
