import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { BuyVoucherBody } from '@kringle/contracts/vouchers';
import type { ApiError } from '../../lib/api-error';
import { serverNow } from '../../lib/server-clock';
import { useBuyVoucherMutation, useGiftVouchersQuery } from './api';
import { recordGiftCheckout } from './gift-analytics';
import { EMPTY_GIFT, errorsFromDetails, voucherToday, type GiftDraft, type GiftErrors } from './gift-form';
import { GiftOrderForm } from './gift-order-form';
import { DoneStage, PayStage, type Stage } from './gift-stages';
import { GivenVouchers } from './given-vouchers';

/** How often the confirmation asks whether the payment webhook has made the voucher live. */
const PAID_POLL_MS = 1500;

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
    recordGiftCheckout(result.data);
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
