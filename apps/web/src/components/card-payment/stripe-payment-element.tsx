import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useState, type FormEvent } from 'react';
import { Button } from '../ui/button';
import { declineMessage, outcomeOf, type ConfirmOutcome, type ConfirmedIntent } from './sandbox-confirm';

/** One Stripe.js per publishable key; this module is only imported on the Payment step. */
const stripes = new Map<string, Promise<Stripe | null>>();
const stripeFor = (key: string) => {
  let p = stripes.get(key);
  if (!p) {
    p = loadStripe(key);
    stripes.set(key, p);
  }
  return p;
};

export interface StripePaymentProps {
  publishableKey: string;
  /** The PaymentIntent's client secret, from the API's checkout call. */
  clientSecret: string;
  /** Where the card's bank (3-D Secure) and Stripe send the customer back to. */
  returnUrl: string;
  payLabel: string;
  onOutcome: (outcome: ConfirmOutcome) => void;
  formId?: string;
  /** On a phone, Pay is in the bottom bar (a submit button with `form={formId}`), not here. */
  payInBar?: boolean;
  /** Tells the page while a payment is under way (the bar's Pay shows it). */
  onBusy?: (busy: boolean) => void;
}

function PayForm({
  returnUrl,
  payLabel,
  onOutcome,
  formId,
  payInBar = false,
  onBusy,
}: Omit<StripePaymentProps, 'publishableKey' | 'clientSecret'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusyHere] = useState(false);
  const setBusy = (b: boolean) => {
    setBusyHere(b);
    onBusy?.(b);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements || busy) return;
    setBusy(true);
    // redirect: if_required keeps card payments on the page; 3-D Secure and wallets leave and come back to return_url.
    const result = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: returnUrl },
      redirect: 'if_required',
    });
    setBusy(false);
    if (result.error) onOutcome({ kind: 'declined', message: declineMessage(result.error) });
    else onOutcome(outcomeOf(result.paymentIntent as unknown as ConfirmedIntent));
  };
  return (
    <form id={formId} onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
      <PaymentElement options={{ layout: 'tabs' }} />
      {!payInBar && (
        <Button type="submit" className="w-full" disabled={!stripe || busy}>
          {busy ? 'Paying…' : payLabel}
        </Button>
      )}
    </form>
  );
}

/** Stripe's Payment Element, used when real Stripe keys are configured (sandbox: false). */
export default function StripePaymentElement({ publishableKey, clientSecret, ...rest }: StripePaymentProps) {
  return (
    <Elements
      stripe={stripeFor(publishableKey)}
      options={{
        clientSecret,
        locale: 'en-AU',
        appearance: { theme: 'stripe', variables: { colorPrimary: '#a3162a', borderRadius: '12px' } },
      }}
    >
      <PayForm {...rest} />
    </Elements>
  );
}
