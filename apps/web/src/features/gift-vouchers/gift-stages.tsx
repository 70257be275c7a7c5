/** /gift's payment and thank-you stages (issue 52). */
import { useEffect, useRef, useState } from 'react';
import { formatAud } from '@kringle/contracts/money';
import type { Voucher } from '@kringle/contracts/vouchers';
import { PaymentProblem } from '../../components/card-payment/payment-problem';
import { CardPayment } from '../../components/card-payment/card-payment';
import type { ConfirmOutcome } from '../../components/card-payment/sandbox-confirm';
import { Button } from '../../components/ui/button';
import { CheckIcon } from '../../components/ui/icons';
import { recordGiftPurchase } from './gift-analytics';
import { formatDay } from './gift-form';
import { useVoucherDownloads } from './voucher-downloads';

/** After this long still waiting, say so calmly (and keep asking). */
const SLOW_AFTER_MS = 20_000;

/** What the family asked for, said back to them while paying and once paid. */
export interface GiftSummary {
  amountCents: number;
  recipientName: string;
  recipientEmail: string | null;
  sendOn: string;
}

export type Stage =
  | { stage: 'form' }
  | { stage: 'pay'; voucherId: string; clientSecret: string; gift: GiftSummary }
  | { stage: 'done'; voucherId: string; gift: GiftSummary | null };

/** Where the card's bank (3-D Secure) sends the family back: /gift, which then waits for the voucher. */
const returnUrlOf = (voucherId: string) => `${window.location.origin}/gift?voucher=${encodeURIComponent(voucherId)}`;

export function sendWords(gift: GiftSummary, today: string): string {
  const day = gift.sendOn <= today ? 'today' : `on ${formatDay(gift.sendOn, today)}`;
  return gift.recipientEmail
    ? `We will e-mail it to ${gift.recipientName} at ${gift.recipientEmail} ${day}.`
    : `We will e-mail it to you ${day}, with a certificate to print and give.`;
}

export function PayStage({
  stage,
  today,
  onPaid,
  onChange,
}: {
  stage: Extract<Stage, { stage: 'pay' }>;
  today: string;
  onPaid: () => void;
  onChange: () => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const problemBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (problem) problemBox.current?.focus();
  }, [problem]);
  const { gift } = stage;
  const outcome = (o: ConfirmOutcome) => {
    if (o.kind === 'succeeded' || o.kind === 'processing') return onPaid();
    if (o.kind === 'redirect') return void window.location.assign(o.url);
    setProblem(o.message);
  };
  return (
    <section
      aria-labelledby="gift-pay-title"
      className="flex flex-col gap-4 rounded-2xl border border-cream-300 bg-cream-50 p-4 sm:p-6"
      data-testid="gift-payment"
    >
      <h2 id="gift-pay-title" tabIndex={-1} className="text-2xl font-semibold text-ink-900 focus:outline-none">
        Pay for your gift
      </h2>
      <div className="flex flex-col gap-1 border-b border-cream-200 pb-3">
        <p className="flex items-baseline justify-between gap-3">
          <span className="min-w-0 text-ink-900 [overflow-wrap:anywhere]">Gift voucher for {gift.recipientName}</span>
          <span className="shrink-0 text-2xl font-semibold text-ink-900 tabular-nums">
            {formatAud(gift.amountCents)}
          </span>
        </p>
        <p className="text-sm text-ink-700">{sendWords(gift, today)}</p>
      </div>
      {problem && <PaymentProblem ref={problemBox} problem={problem} testId="gift-payment-problem" />}
      <CardPayment
        clientSecret={stage.clientSecret}
        returnUrl={returnUrlOf(stage.voucherId)}
        payLabel={`Pay ${formatAud(gift.amountCents)}`}
        onOutcome={outcome}
        onBusy={(b) => {
          setBusy(b);
          if (b) setProblem(null);
        }}
      />
      <Button variant="ghost" className="self-start" onClick={onChange} disabled={busy}>
        Change the gift
      </Button>
      <p className="text-sm text-ink-600">
        Payments are processed securely by Stripe. We never see or store your full card number.
      </p>
    </section>
  );
}

export function DoneStage({
  stage,
  voucher,
  today,
  onAnother,
}: {
  stage: Extract<Stage, { stage: 'done' }>;
  voucher: Voucher | undefined;
  today: string;
  onAnother: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const downloads = useVoucherDownloads();
  const [slow, setSlow] = useState(false);
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    const timer = window.setTimeout(() => setSlow(true), SLOW_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, []);
  const live = voucher && voucher.status !== 'pending';
  useEffect(() => {
    if (live && voucher) recordGiftPurchase(voucher);
  }, [live, voucher]);
  const gift: GiftSummary | null =
    stage.gift ??
    (voucher
      ? {
          amountCents: voucher.amountCents,
          recipientName: voucher.recipientName,
          recipientEmail: null,
          sendOn: voucher.sendOn,
        }
      : null);
  return (
    <section
      aria-labelledby="gift-done-title"
      className="flex flex-col gap-4 rounded-2xl border border-pine-600/30 bg-pine-50 p-4 text-ink-900 sm:p-6"
      data-testid="gift-done"
    >
      <div className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-full bg-pine-700 text-cream-50"
        >
          <CheckIcon className="size-5" />
        </span>
        <div className="flex min-w-0 flex-col gap-1">
          <h2 id="gift-done-title" ref={heading} tabIndex={-1} className="text-2xl font-semibold focus:outline-none">
            Thank you for your gift
          </h2>
          <p role="status" className="[overflow-wrap:anywhere]">
            {!gift
              ? 'Your payment is received.'
              : live
                ? `Your ${formatAud(gift.amountCents)} gift voucher for ${gift.recipientName} is paid.`
                : `Payment received. Getting the ${formatAud(gift.amountCents)} gift voucher for ` +
                  `${gift.recipientName} ready…`}
          </p>
          {stage.gift ? (
            <p>{sendWords(stage.gift, today)}</p>
          ) : (
            voucher && (
              <p>
                {voucher.sendOn <= today
                  ? 'It is e-mailed today.'
                  : `It is e-mailed on ${formatDay(voucher.sendOn, today)}, at 9 am (Sydney time).`}
              </p>
            )
          )}
          {slow && !live && (
            <p className="text-sm text-ink-700">
              This is taking longer than usual. The voucher shows below as soon as your bank confirms the payment, and
              we will e-mail you.
            </p>
          )}
          <p className="text-sm text-ink-700">It lasts three years, with no fees, and pays for any visit.</p>
        </div>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {live && voucher && (
          <>
            <Button
              variant="secondary"
              onClick={() => downloads.download(voucher, 'certificate')}
              disabled={downloads.busy !== null}
            >
              {downloads.busy?.file === 'certificate' ? 'Downloading…' : 'Download certificate'}
            </Button>
            <Button
              variant="secondary"
              onClick={() => downloads.download(voucher, 'receipt')}
              disabled={downloads.busy !== null}
            >
              {downloads.busy?.file === 'receipt' ? 'Downloading…' : 'Download receipt'}
            </Button>
          </>
        )}
        <Button variant="ghost" onClick={onAnother}>
          Give another
        </Button>
      </div>
    </section>
  );
}
