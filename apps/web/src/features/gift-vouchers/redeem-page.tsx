import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { formatAud } from '@kringle/contracts/money';
import type { Voucher } from '@kringle/contracts/vouchers';
import { Button, buttonClasses } from '../../components/ui/button';
import { CheckIcon } from '../../components/ui/icons';
import type { ApiError } from '../../lib/api-error';
import { VOUCHER_CODE_EXAMPLE, voucherCodeFromHash, voucherCodeOf, voucherCodeProblem } from '../../lib/voucher-code';
import { useClaimVoucherMutation, useLazyLookUpVoucherQuery } from './api';
import { formatExpiry } from './gift-form';
import { VoucherStatusTag } from './voucher-status-tag';

const input =
  'min-h-12 w-full min-w-0 rounded-xl border bg-white px-3.5 font-mono text-lg tracking-wider text-ink-900 ' +
  'uppercase shadow-xs placeholder:font-sans placeholder:tracking-normal placeholder:normal-case ' +
  'placeholder:text-ink-600/70 focus:border-festive-700 focus:outline-2 focus:outline-offset-1 ' +
  'focus:outline-festive-700';

/** A refused lookup or claim in words a family can act on (API.md: 404 for a wrong code, 409, 429). */
export function redeemProblem(error: ApiError | undefined): string {
  const code = error?.data?.code;
  if (error?.status === 404 || code === 'NOT_FOUND')
    return 'We could not find a voucher with this code. Check it against the certificate or the e-mail and try again.';
  if (code === 'VOUCHER_CLAIMED')
    return (
      'This voucher has already been added to another account, so it can only be used there. If that was not ' +
      'you, please contact us.'
    );
  if (error?.status === 429 || code === 'RATE_LIMITED')
    return 'Too many codes that did not match have been tried. For your security, please wait an hour and try again.';
  if (code === 'VOUCHER_INVALID') return error?.data?.error ?? 'This voucher cannot be added.';
  return error?.data?.error ?? 'We could not check this code just now. Please try again.';
}

/** What the family can do with a voucher they looked up. */
function VoucherFound({
  voucher,
  claiming,
  onClaim,
  justClaimed,
}: {
  voucher: Voucher;
  claiming: boolean;
  onClaim: () => void;
  justClaimed: boolean;
}) {
  const usable = voucher.status === 'active';
  return (
    <section
      aria-labelledby="found-voucher"
      data-testid="found-voucher"
      className="flex flex-col gap-4 rounded-2xl border border-cream-300 bg-cream-50 p-4 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id="found-voucher" className="min-w-0 text-2xl font-semibold text-ink-900 [overflow-wrap:anywhere]">
          A {formatAud(voucher.amountCents)} gift voucher for {voucher.recipientName}
        </h2>
        <VoucherStatusTag status={voucher.status} />
      </div>
      <dl className="grid gap-x-6 gap-y-3 text-ink-900 sm:grid-cols-3">
        <div>
          <dt className="text-sm text-ink-600">Value</dt>
          <dd className="text-lg font-semibold tabular-nums">{formatAud(voucher.amountCents)}</dd>
        </div>
        <div>
          <dt className="text-sm text-ink-600">Left to spend</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="found-voucher-balance">
            {formatAud(voucher.balanceCents)}
          </dd>
        </div>
        {voucher.expiresAt && (
          <div>
            <dt className="text-sm text-ink-600">{voucher.status === 'expired' ? 'Expired' : 'Valid until'}</dt>
            <dd className="text-lg font-semibold">{formatExpiry(voucher.expiresAt)}</dd>
          </div>
        )}
      </dl>
      {voucher.claimed ? (
        <div role="status" className="flex items-start gap-3 rounded-xl bg-pine-50 p-3 text-ink-900">
          <CheckIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-pine-700" />
          <p>
            {justClaimed ? 'Added to your account. ' : 'This voucher is in your account. '}
            {usable
              ? 'When you book, choose it at the Check your booking step: it pays before your card.'
              : 'It has nothing left to spend.'}
          </p>
        </div>
      ) : usable ? (
        <Button onClick={onClaim} disabled={claiming} aria-busy={claiming} className="self-stretch sm:self-start">
          {claiming ? 'Adding…' : 'Add to my account'}
        </Button>
      ) : (
        <p className="rounded-xl bg-cream-200 p-3 text-ink-900">
          {voucher.status === 'spent'
            ? 'This voucher has been used up, so there is nothing left to add.'
            : voucher.status === 'expired'
              ? 'This voucher has expired, so it can no longer be used.'
              : 'This voucher was cancelled, so it can no longer be used.'}
        </p>
      )}
      {voucher.claimed && usable && (
        <div className="flex flex-col gap-2 sm:flex-row">
          <Link to="/create-booking" className={buttonClasses('primary')}>
            Book a session
          </Link>
          <Link to="/bookings" className={buttonClasses('secondary')}>
            My Bookings
          </Link>
        </div>
      )}
    </section>
  );
}

/**
 * /gift/redeem: a gift voucher's code, from the address's fragment (the certificate's QR and the e-mail's link put
 * it there: a browser never sends a fragment, so the code stays out of every log) or typed, looked up (its value,
 * balance and expiry), then added to this account.
 */
export function RedeemPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const id = useId();
  // The certificate's QR or the e-mail's link: the code in the fragment, looked up as the page opens.
  const [fromLink] = useState(() => voucherCodeFromHash(location.hash));
  const [draft, setDraft] = useState(() => voucherCodeOf(fromLink) ?? fromLink);
  const [fieldError, setFieldError] = useState<string | null>(() => (fromLink && voucherCodeProblem(fromLink)) || null);
  const [lookUp, looked] = useLazyLookUpVoucherQuery();
  const [claim, claimed] = useClaimVoucherMutation();
  const [voucher, setVoucher] = useState<Voucher | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [justClaimed, setJustClaimed] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const result = useRef<HTMLDivElement>(null);

  type LookedUp = Awaited<ReturnType<typeof lookUp>>;
  const show = (answer: LookedUp) => {
    if (answer.error || !answer.data) {
      setVoucher(null);
      setProblem(redeemProblem(answer.error as ApiError | undefined));
      return field.current?.focus();
    }
    setVoucher(answer.data);
  };

  const check = (typed: string) => {
    const shape = voucherCodeProblem(typed);
    setProblem(null);
    setJustClaimed(false);
    setVoucher(null);
    if (shape) {
      setFieldError(shape);
      return field.current?.focus();
    }
    setFieldError(null);
    const code = voucherCodeOf(typed)!;
    setDraft(code);
    void lookUp(code, true).then(show);
  };

  // Then the code leaves the address (it is the voucher's value to whoever reads it over a shoulder or in the
  // history).
  useEffect(() => {
    if (!fromLink) return;
    void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
    const code = voucherCodeOf(fromLink);
    if (code) void lookUp(code, true).then(show);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, for the link the page opened with
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    check(draft);
  };

  const addToAccount = async () => {
    if (!voucher) return;
    setProblem(null);
    const answer = await claim(voucherCodeOf(draft) ?? draft);
    if (answer.error) {
      setProblem(redeemProblem(answer.error as ApiError));
      return;
    }
    setVoucher(answer.data);
    setJustClaimed(true);
  };

  useEffect(() => {
    if (voucher) result.current?.scrollIntoView?.({ block: 'nearest' });
  }, [voucher]);

  const describedBy = [`${id}-hint`, fieldError && `${id}-error`].filter(Boolean).join(' ');
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-6 sm:px-8 sm:py-10">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">Add a gift voucher</h1>
        <p className="leading-relaxed text-ink-700">
          Been given a Santa visit? Add the voucher to your account and it pays first when you book, over as many visits
          as its value covers.
        </p>
      </header>

      <form
        noValidate
        onSubmit={submit}
        aria-labelledby={`${id}-label`}
        className="flex flex-col gap-2 rounded-2xl border border-cream-300 bg-cream-50 p-4 sm:p-6"
      >
        <label id={`${id}-label`} htmlFor={id} className="font-semibold text-ink-900">
          Voucher code
        </label>
        <p id={`${id}-hint`} className="text-sm text-ink-600">
          The 12 letters and numbers on the certificate or in the e-mail, like {VOUCHER_CODE_EXAMPLE}.
        </p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            ref={field}
            id={id}
            name="voucherCode"
            value={draft}
            onChange={(e) => {
              setDraft(e.target.value);
              if (fieldError) setFieldError(null);
            }}
            maxLength={40}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            enterKeyHint="go"
            className={`${input} ${fieldError ? 'border-festive-700' : 'border-ink-600/70'}`}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={describedBy}
          />
          <Button type="submit" variant="secondary" className="shrink-0" disabled={looked.isFetching}>
            {looked.isFetching ? 'Checking…' : 'Check voucher'}
          </Button>
        </div>
        <div role="alert">
          {fieldError && (
            <p id={`${id}-error`} className="flex items-start gap-1.5 text-sm font-medium text-festive-800">
              <span aria-hidden="true">⚠</span>
              <span>{fieldError}</span>
            </p>
          )}
        </div>
      </form>

      <div role="alert">
        {problem && (
          <p
            data-testid="redeem-problem"
            className="rounded-2xl border border-festive-100 bg-festive-50 p-4 font-medium text-festive-900"
          >
            {problem}
          </p>
        )}
      </div>

      <div ref={result}>
        {voucher && (
          <VoucherFound
            voucher={voucher}
            claiming={claimed.isLoading}
            onClaim={() => void addToAccount()}
            justClaimed={justClaimed}
          />
        )}
      </div>

      <p className="text-ink-700">
        Want to give one?{' '}
        <Link to="/gift" className="font-semibold text-festive-700 underline underline-offset-2">
          Give a Santa visit
        </Link>
      </p>
    </section>
  );
}
