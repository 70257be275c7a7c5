import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatAud } from '@kringle/contracts/money';
import type { BuyVoucherBody, Voucher } from '@kringle/contracts/vouchers';
import { CardPayment } from '../../components/card-payment/card-payment';
import type { ConfirmOutcome } from '../../components/card-payment/sandbox-confirm';
import { Button } from '../../components/ui/button';
import { CheckIcon } from '../../components/ui/icons';
import type { ApiError } from '../../lib/api-error';
import { serverNow } from '../../lib/server-clock';
import { useBuyVoucherMutation, useGiftVouchersQuery } from './api';
import { EMPTY_GIFT, errorsFromDetails, formatDay, voucherToday, type GiftDraft, type GiftErrors } from './gift-form';
import { GiftOrderForm } from './gift-order-form';
import { GivenVouchers } from './given-vouchers';
import { useVoucherDownloads } from './voucher-downloads';

/** How often the confirmation asks whether the payment webhook has made the voucher live. */
const PAID_POLL_MS = 1500;
/** After this long still waiting, say so calmly (and keep asking). */
const SLOW_AFTER_MS = 20_000;

/** What the family asked for, said back to them while paying and once paid. */
interface GiftSummary {
  amountCents: number;
  recipientName: string;
  recipientEmail: string | null;
  sendOn: string;
}

type Stage =
  | { stage: 'form' }
  | { stage: 'pay'; voucherId: string; clientSecret: string; gift: GiftSummary }
  | { stage: 'done'; voucherId: string; gift: GiftSummary | null };

/** Where the card's bank (3-D Secure) sends the family back: this page, which then waits for the voucher. */
const returnUrlOf = (voucherId: string) => `${window.location.origin}/gift?voucher=${encodeURIComponent(voucherId)}`;

export function sendWords(gift: GiftSummary, today: string): string {
  const day = gift.sendOn <= today ? 'today' : `on ${formatDay(gift.sendOn, today)}`;
  return gift.recipientEmail
    ? `We will e-mail it to ${gift.recipientName} at ${gift.recipientEmail} ${day}.`
    : `We will e-mail it to you ${day}, with a certificate to print and give.`;
}

function PayStage({
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
      {problem && (
        <div
          ref={problemBox}
          role="alert"
          tabIndex={-1}
          data-testid="gift-payment-problem"
          className="rounded-2xl border border-festive-100 bg-festive-50 p-4 text-festive-900"
        >
          <p className="font-semibold">Payment not completed</p>
          <p>{problem}</p>
          <p className="mt-1 text-sm text-ink-700">
            You have not been charged. Check the details or use another card, then press Pay again.
          </p>
        </div>
      )}
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

function DoneStage({
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

/**
 * /gift, "Give a Santa visit" (issue 52): a gift voucher by value, paid by card on this page with the booking's
 * card form, then a thank-you; below, the vouchers the family gave, each with its certificate and receipt.
 */
export function GiftPage() {
  const [params, setParams] = useSearchParams();
  const returned = params.get('voucher');
  const failedAtBank = params.get('redirect_status') === 'failed';
  const [today] = useState(() => voucherToday(serverNow()));
  const [draft, setDraft] = useState<GiftDraft>(() => ({ ...EMPTY_GIFT, sendOn: today }));
  const [stage, setStage] = useState<Stage>(() =>
    returned && !failedAtBank ? { stage: 'done', voucherId: returned, gift: null } : { stage: 'form' },
  );
  const [bankProblem, setBankProblem] = useState(failedAtBank);
  const [serverErrors, setServerErrors] = useState<GiftErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [buy, bought] = useBuyVoucherMutation();
  const waiting = stage.stage === 'done';
  const [settled, setSettled] = useState(false);
  const list = useGiftVouchersQuery(undefined, { pollingInterval: waiting && !settled ? PAID_POLL_MS : 0 });
  const voucher = stage.stage === 'done' ? list.data?.find((v) => v.id === stage.voucherId) : undefined;
  if (waiting && !settled && voucher && voucher.status !== 'pending') setSettled(true);
  const top = useRef<HTMLDivElement>(null);

  // Back from the bank's page: the address no longer needs to say so (a reload would wait again).
  useEffect(() => {
    if (returned || params.has('redirect_status')) setParams({}, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, for the address the page opened at
  }, []);

  const start = async (body: BuyVoucherBody) => {
    setProblem(null);
    setServerErrors({});
    setBankProblem(false);
    const result = await buy(body);
    if (result.error) {
      const error = result.error as ApiError;
      const byField = errorsFromDetails(error.data?.details);
      setServerErrors(byField);
      if (Object.keys(byField).length === 0)
        setProblem(error.data?.error ?? 'We could not start the payment. Please try again.');
      return;
    }
    setStage({
      stage: 'pay',
      voucherId: result.data.voucherOrderId,
      clientSecret: result.data.client_secret,
      gift: {
        amountCents: result.data.amountCents,
        recipientName: body.recipientName,
        recipientEmail: body.recipientEmail ?? null,
        sendOn: body.sendOn ?? today,
      },
    });
    requestAnimationFrame(() => {
      top.current?.scrollIntoView?.({ block: 'start' });
      document.getElementById('gift-pay-title')?.focus({ preventScroll: true });
    });
  };

  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-6 sm:px-8 sm:py-10">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">Give a Santa visit</h1>
        <p className="max-w-xl leading-relaxed text-ink-700">
          A gift voucher for photos with Santa. They choose the centre, the day and the photos, and it pays for as many
          visits as its value covers. It lasts three years, with no fees.
        </p>
        <p className="text-ink-700">
          Been given one?{' '}
          <Link to="/gift/redeem" className="font-semibold text-festive-700 underline underline-offset-2">
            Add a gift voucher to your account
          </Link>
        </p>
      </header>

      <div ref={top} className="scroll-mt-4">
        {stage.stage === 'form' && (
          <div className="flex flex-col gap-3">
            {(problem || bankProblem) && (
              <p role="alert" className="rounded-2xl border border-festive-100 bg-festive-50 p-4 text-festive-900">
                {problem ?? 'Your bank did not confirm the payment, so you have not been charged. Please try again.'}
              </p>
            )}
            <GiftOrderForm
              draft={draft}
              onChange={setDraft}
              today={today}
              busy={bought.isLoading}
              serverErrors={serverErrors}
              onSubmit={(body) => void start(body)}
            />
          </div>
        )}
        {stage.stage === 'pay' && (
          <PayStage
            stage={stage}
            today={today}
            onPaid={() => {
              setSettled(false);
              setStage({ stage: 'done', voucherId: stage.voucherId, gift: stage.gift });
            }}
            onChange={() => setStage({ stage: 'form' })}
          />
        )}
        {stage.stage === 'done' && (
          <DoneStage
            stage={stage}
            voucher={voucher}
            today={today}
            onAnother={() => {
              setDraft({ ...EMPTY_GIFT, sendOn: today });
              setStage({ stage: 'form' });
            }}
          />
        )}
      </div>

      <GivenVouchers today={today} />
    </section>
  );
}
