import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Button } from '../ui/button';
import { useStripeConfigQuery } from './api';
import type { CardFields } from './card-validation';
import { SandboxCardForm } from './sandbox-card-form';
import { confirmWithSandbox } from './sandbox-confirm';
import { SandboxTestCards } from './sandbox-test-cards';
import type { StripePaymentProps } from './stripe-payment-element';

// Stripe.js loads only here, and only with real keys: it stays out of the first bundle.
const StripePaymentElement = lazy(() => import('./stripe-payment-element'));

export type CardPaymentProps = Omit<StripePaymentProps, 'publishableKey'> & {
  /** What shows while the payment form's settings load, and when they cannot (the page's own look). */
  loading?: ReactNode;
  loadProblem?: (retry: () => void) => ReactNode;
};

/**
 * Pays one PaymentIntent by card: the local sandbox's card form with its test cards, or Stripe's
 * Payment Element with real keys. The booking wizard's payment step and the photo gallery's
 * "Buy more" both use it, so a card is taken one way everywhere.
 */
export function CardPayment({
  clientSecret,
  returnUrl,
  payLabel,
  onOutcome,
  formId,
  payInBar = false,
  onBusy,
  loading,
  loadProblem,
}: CardPaymentProps) {
  const config = useStripeConfigQuery();
  const [busy, setBusyHere] = useState(false);
  const setBusy = (b: boolean) => {
    setBusyHere(b);
    onBusy?.(b);
  };

  const paySandbox = async (card: CardFields) => {
    if (!config.data?.sandboxUrl) return;
    setBusy(true);
    const outcome = await confirmWithSandbox({
      sandboxUrl: config.data.sandboxUrl,
      publishableKey: config.data.publishableKey,
      clientSecret,
      card,
      returnUrl,
    });
    // Leaving for the bank page: keep the button busy until the browser goes.
    if (outcome.kind !== 'redirect') setBusy(false);
    onOutcome(outcome);
  };

  const waiting = loading ?? (
    <p role="status" className="flex items-center gap-2 text-ink-700">
      <span
        className="size-5 animate-spin rounded-full border-2 border-cream-300 border-t-festive-700"
        aria-hidden="true"
      />{' '}
      Loading the payment form
    </p>
  );
  if (config.isLoading) return <>{waiting}</>;
  if (config.isError || !config.data) {
    const retry = () => void config.refetch();
    return (
      <>
        {loadProblem?.(retry) ?? (
          <div role="alert" className="flex flex-col items-start gap-2 text-ink-700">
            <p>The payment form could not load.</p>
            <Button variant="secondary" onClick={retry}>
              Try again
            </Button>
          </div>
        )}
      </>
    );
  }
  if (config.data.sandbox) {
    return (
      <>
        <SandboxTestCards />
        <SandboxCardForm
          payLabel={payLabel}
          busy={busy}
          onPay={(card) => void paySandbox(card)}
          formId={formId}
          payInBar={payInBar}
        />
      </>
    );
  }
  return (
    <Suspense fallback={waiting}>
      <StripePaymentElement
        publishableKey={config.data.publishableKey}
        clientSecret={clientSecret}
        returnUrl={returnUrl}
        payLabel={payLabel}
        onOutcome={onOutcome}
        formId={formId}
        payInBar={payInBar}
        onBusy={setBusy}
      />
    </Suspense>
  );
}
