import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { formatAud } from '@kringle/contracts/money';
import { Button } from '../../../components/ui/button';
import { CodeForm } from './code-form';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { setPromo } from '../state/booking-slice';
import { amountDue, pricedPromo } from './amount-due';
import { cartTotalCents } from './cart-math';
import { applyPromo } from './checkout-actions';

/**
 * Overview's promo code (issue 52): Apply prices the cart with it on the server, which says why when it
 * does not apply (`error` is the sentence to show); Remove takes it off. The code is kept in the wizard,
 * so Continue's cart carries it; a code priced for other packages or another session is priced again.
 * `error` is the Overview's, as Continue's cart may refuse the code too (used up meanwhile).
 */
export function PromoCodeField({
  locked,
  error,
  onError,
  onHoldExpired,
}: {
  /** The order is placed: its price no longer changes. */
  locked: boolean;
  error: string | null;
  onError: (message: string | null) => void;
  onHoldExpired: () => void;
}) {
  const dispatch = useWizardDispatch();
  const booking = useWizardSelector((s) => s.booking);
  const promo = booking.promo ?? null;
  // Once the order is placed it keeps the code's price, whatever the cart shows.
  const priced = pricedPromo(booking) ?? (locked ? booking.promo : null);
  const [draft, setDraft] = useState(promo?.code ?? '');
  const [busy, setBusy] = useState(false);
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const remove = useRef<HTMLButtonElement>(null);

  type Priced = Awaited<ReturnType<ReturnType<typeof applyPromo>>>;
  /** The server's refusal beside the field; false when the code was priced. */
  const refused = (result: Priced) => {
    if (applyPromo.fulfilled.match(result)) return false;
    if (result.payload?.data.code === 'HOLD_EXPIRED') onHoldExpired();
    else onError(result.payload?.data.error ?? 'We could not check that code. Please try again.');
    return true;
  };
  const apply = async (code: string) => {
    setBusy(true);
    onError(null);
    const result = await dispatch(applyPromo(code));
    setBusy(false);
    const next = refused(result) ? field : remove;
    requestAnimationFrame(() => next.current?.focus());
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = draft.trim().toUpperCase();
    if (!code) {
      onError('Enter a code.');
      return field.current?.focus();
    }
    void apply(code);
  };
  const takeOff = () => {
    dispatch(setPromo(null));
    onError(null);
    requestAnimationFrame(() => field.current?.focus());
  };

  // Priced for other packages or another held session: asked again, once for each.
  const stale =
    promo && !priced && !locked
      ? `${promo.code} ${booking.reservationData?.holdId} ${cartTotalCents(booking.packages)}`
      : null;
  useEffect(() => {
    if (stale && promo) void dispatch(applyPromo(promo.code)).then(refused);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once for each cart the code was not priced for
  }, [stale]);

  if (locked && !promo) return null;
  return (
    <div className="mt-3 border-t border-cream-200 pt-3" data-testid="promo-code">
      {promo ? (
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
          <p className="min-w-0 text-ink-900">
            <span className="font-semibold">Promo code {promo.code}</span>{' '}
            <span className="text-ink-700">{priced ? `${formatAud(priced.cents)} off` : 'being checked…'}</span>
          </p>
          {!locked && (
            <Button
              ref={remove}
              variant="ghost"
              className="shrink-0 !px-3 !text-festive-700"
              onClick={takeOff}
              disabled={busy}
              aria-label={`Remove promo code ${promo.code}`}
            >
              Remove
            </Button>
          )}
        </div>
      ) : (
        <CodeForm
          id={id}
          label="Promo code"
          name="promoCode"
          value={draft}
          onChange={setDraft}
          onSubmit={submit}
          inputRef={field}
          busy={busy}
          invalid={Boolean(error)}
        />
      )}
      {/* Always in the page, so what appears in it is announced. */}
      <p role="status" className="sr-only">
        {priced
          ? `Promo code ${priced.code} applied: ${formatAud(priced.cents)} off, ` +
            `${formatAud(amountDue(booking).dueCents)} to pay.`
          : ''}
      </p>
      <InlineAlert id={`${id}-error`} error={error} />
    </div>
  );
}
