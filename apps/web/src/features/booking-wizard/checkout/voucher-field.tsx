import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { formatAud } from '@kringle/contracts/money';
import { MAX_CART_VOUCHERS } from '@kringle/contracts/vouchers';
import { Button } from '../../../components/ui/button';
import { CodeForm } from './code-form';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { voucherCodeOf, voucherCodeProblem } from '../../../lib/voucher-code';
import { useWizardDispatch, useWizardSelector, useWizardStore } from '../state/booking-hooks';
import { removeVoucher } from '../state/booking-slice';
import { amountDue, pricedVoucherParts, voucherPricingKey } from './amount-due';
import { useWizardVouchersQuery } from './api';
import { applyVoucher, PROMO_INVALID } from './checkout-actions';

/**
 * Overview's gift vouchers (issue 52, decision 0112): a code typed and applied, or one of the family's own in one
 * tap; up to three, paying in the order given, before the credit and the card. The server prices each one's part
 * (and says why one does not apply: VOUCHER_INVALID); the totals show each as a line. `error` is Overview's, as
 * Continue's cart or checkout may refuse a voucher too (spent meanwhile).
 */
export function VoucherField({
  locked,
  error,
  onError,
  onPromoError,
  onHoldExpired,
}: {
  /** The order is placed: what the vouchers pay no longer changes. */
  locked: boolean;
  error: string | null;
  onError: (message: string | null) => void;
  /** Pricing the vouchers again found the promo code no longer applies. */
  onPromoError: (message: string) => void;
  onHoldExpired: () => void;
}) {
  const dispatch = useWizardDispatch();
  const store = useWizardStore();
  const booking = useWizardSelector((s) => s.booking);
  const applied = booking.vouchers ?? null;
  const codes = applied?.codes ?? [];
  const parts = locked ? (booking.checkoutData?.voucherParts ?? []) : pricedVoucherParts(booking);
  const { dueCents } = amountDue(booking);
  const owned = useWizardVouchersQuery(undefined, { skip: locked });
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const [announce, setAnnounce] = useState('');
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const shown = error ?? applied?.notice ?? null;

  type Priced = Awaited<ReturnType<ReturnType<typeof applyVoucher>>>;
  /** The server's refusal beside the field; false when the vouchers were priced. */
  const refused = (result: Priced) => {
    if (applyVoucher.fulfilled.match(result)) return false;
    const problem = result.payload?.data;
    if (problem?.code === 'HOLD_EXPIRED') onHoldExpired();
    else if (problem?.code === PROMO_INVALID) onPromoError(problem.error);
    else onError(problem?.error ?? 'We could not check that voucher. Please try again.');
    return true;
  };
  const apply = async (code: string) => {
    setBusy(true);
    onError(null);
    setAnnounce('');
    const result = await dispatch(applyVoucher(code));
    setBusy(false);
    if (refused(result)) return requestAnimationFrame(() => field.current?.focus());
    setDraft('');
    const part = pricedVoucherParts(store.getState().booking)?.find((p) => p.code === code);
    setAnnounce(`Gift voucher ${code} applied${part ? `: ${formatAud(part.cents)} off` : ''}.`);
    requestAnimationFrame(() => field.current?.focus());
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = voucherCodeProblem(draft);
    const code = voucherCodeOf(draft);
    if (problem || !code) {
      onError(problem || 'Enter the voucher code.');
      return field.current?.focus();
    }
    if (codes.includes(code)) {
      onError('This gift voucher is already on your booking.');
      return field.current?.focus();
    }
    void apply(code);
  };
  const takeOff = (code: string) => {
    dispatch(removeVoucher(code));
    onError(null);
    setAnnounce(`Gift voucher ${code} removed.`);
    requestAnimationFrame(() => field.current?.focus());
  };

  // Priced for other packages, another code, another donation or another hold: asked again, once for each.
  const stale =
    !locked && codes.length > 0 && !parts ? `${voucherPricingKey(booking, booking.promo?.code)} ${codes.join()}` : null;
  useEffect(() => {
    if (stale) void dispatch(applyVoucher(null)).then(refused);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once for each cart the vouchers were not priced for
  }, [stale]);
  const offers = (owned.data ?? []).filter(
    (v) => v.claimed && v.status === 'active' && v.balanceCents > 0 && !codes.includes(v.code),
  );
  const full = codes.length >= MAX_CART_VOUCHERS;
  if (locked && (booking.checkoutData?.voucherParts ?? []).length === 0) return null;
  const lines = locked ? (booking.checkoutData?.voucherParts ?? []).map((p) => p.code) : codes;
  return (
    <div className="mt-3 border-t border-cream-200 pt-3" data-testid="gift-vouchers">
      {lines.length > 0 && (
        <ul className="mb-2 flex flex-col gap-1" aria-label="Gift vouchers on this booking">
          {lines.map((code) => {
            const part = parts?.find((p) => p.code === code);
            return (
              <li key={code} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                <p className="min-w-0 text-ink-900">
                  <span className="font-semibold">
                    Gift voucher <span className="font-mono tracking-wide whitespace-nowrap">{code}</span>
                  </span>{' '}
                  <span className="text-ink-700">
                    {part ? `${formatAud(part.cents)} off` : parts ? 'not needed: the total is paid' : 'being checked…'}
                  </span>
                </p>
                {!locked && (
                  <Button
                    variant="ghost"
                    className="shrink-0 !px-3 !text-festive-700"
                    onClick={() => takeOff(code)}
                    disabled={busy}
                    aria-label={`Remove gift voucher ${code}`}
                  >
                    Remove
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {!locked && !full && (codes.length === 0 || dueCents > 0) && (
        <CodeForm
          id={id}
          label={codes.length > 0 ? 'Another gift voucher' : 'Gift voucher'}
          name="voucherCode"
          value={draft}
          onChange={setDraft}
          onSubmit={submit}
          inputRef={field}
          busy={busy}
          invalid={Boolean(shown)}
          mono
          applyLabel="Apply gift voucher"
        />
      )}
      {!locked && full && (
        <p className="text-sm text-ink-700">Up to {MAX_CART_VOUCHERS} gift vouchers can pay for one booking.</p>
      )}
      {!locked && !full && dueCents > 0 && offers.length > 0 && (
        <div className="mt-2">
          <p id={`${id}-yours`} className="text-sm text-ink-700">
            Your gift vouchers:
          </p>
          <ul className="mt-1 flex flex-wrap gap-2" aria-labelledby={`${id}-yours`}>
            {offers.map((v) => (
              <li key={v.id}>
                <Button
                  variant="secondary"
                  className="!gap-1 !px-3 text-sm"
                  disabled={busy}
                  onClick={() => void apply(v.code)}
                >
                  Use <span className="font-mono tracking-wide">{v.code}</span>{' '}
                  <span className="font-normal text-ink-700">({formatAud(v.balanceCents)} left)</span>
                </Button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {/* Always in the page, so what appears in it is announced. */}
      <p role="status" className="sr-only">
        {announce}
      </p>
      <InlineAlert id={`${id}-error`} error={shown} />
    </div>
  );
}
