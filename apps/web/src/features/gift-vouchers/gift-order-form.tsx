import { clsx } from 'clsx';
import { useId, useState, type FormEvent } from 'react';
import { SUGGESTED_VOUCHER_CENTS, VOUCHER_MESSAGE_MAX, type BuyVoucherBody } from '@kringle/contracts/vouchers';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import {
  AMOUNT_RULE,
  checkGift,
  GIFT_FIELDS,
  lastSendDay,
  shortAud,
  type GiftDraft,
  type GiftErrors,
} from './gift-form';

const pill =
  'flex min-h-11 min-w-20 cursor-pointer items-center justify-center rounded-full border-2 px-4 text-lg ' +
  'font-semibold has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 ' +
  'has-[:focus-visible]:outline-festive-700';
const chosenPill = 'border-festive-700 bg-festive-50 text-festive-800';
const plainPill = 'border-cream-300 bg-white text-ink-900 hover:border-festive-600';
const boxClass =
  'w-full min-w-0 rounded-xl border bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-xs transition-colors ' +
  'placeholder:text-ink-600/70 focus:border-festive-700 focus:outline-2 focus:outline-offset-1 ' +
  'focus:outline-festive-700';

function FieldError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="flex items-start gap-1.5 text-sm font-medium text-festive-800">
      <span aria-hidden="true">⚠</span>
      <span>{error}</span>
    </p>
  );
}

/**
 * "Give a Santa visit"'s form: the amount (a suggested one in one tap, or another multiple of $5), who it is for,
 * a message and the day its e-mail goes. Checked here as the API checks it; Continue hands the body on.
 */
export function GiftOrderForm({
  draft,
  onChange,
  today,
  busy,
  serverErrors,
  onSubmit,
}: {
  draft: GiftDraft;
  onChange: (draft: GiftDraft) => void;
  today: string;
  busy: boolean;
  /** What the API refused, by field. */
  serverErrors: GiftErrors;
  onSubmit: (body: BuyVoucherBody) => void;
}) {
  const id = useId();
  const [checked, setChecked] = useState<GiftErrors>({});
  const errors: GiftErrors = { ...serverErrors, ...checked };
  const fieldId = (field: (typeof GIFT_FIELDS)[number]) => `${id}-${field}`;
  const set = <K extends keyof GiftDraft>(key: K, value: GiftDraft[K]) => {
    onChange({ ...draft, [key]: value });
    // An edited field's refusal (the browser's or the API's) goes until the next Continue.
    const field = (key === 'otherAmount' ? 'amount' : key) as keyof GiftErrors;
    if (errors[field]) setChecked((c) => ({ ...c, [field]: '' }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = checkGift(draft, today);
    if (!result.ok) {
      setChecked(result.errors);
      const first = GIFT_FIELDS.find((f) => result.errors[f]);
      // The amount's first choice, or the typed amount, takes the focus with its error in view.
      const target =
        first === 'amount'
          ? document.getElementById(draft.amount === 'other' ? `${id}-other` : `${id}-amount-0`)
          : first && document.getElementById(fieldId(first));
      requestAnimationFrame(() => target?.focus());
      return;
    }
    setChecked({});
    onSubmit(result.body);
  };

  const amountError = errors.amount;
  const amountDescribedBy = [`${id}-amount-rule`, amountError && `${id}-amount-error`].filter(Boolean).join(' ');
  const left = VOUCHER_MESSAGE_MAX - draft.message.length;

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      className="flex flex-col gap-6 rounded-2xl border border-cream-300 bg-cream-50 p-4 sm:p-6"
      data-testid="gift-form"
    >
      <h2 id={`${id}-title`} className="text-2xl font-semibold text-ink-900">
        Your gift
      </h2>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-semibold text-ink-900">How much?</legend>
        <p id={`${id}-amount-rule`} className="text-sm text-ink-600">
          {AMOUNT_RULE} A visit with a Classic Print is about $40.
        </p>
        <div className="flex flex-wrap gap-2">
          {SUGGESTED_VOUCHER_CENTS.map((cents, i) => {
            const on = draft.amount === cents;
            return (
              <label key={cents} className={clsx(pill, on ? chosenPill : plainPill)}>
                <input
                  id={`${id}-amount-${i}`}
                  type="radio"
                  name={`${id}-amount`}
                  className="sr-only"
                  checked={on}
                  onChange={() => set('amount', cents)}
                  aria-describedby={amountDescribedBy}
                />
                {shortAud(cents)}
              </label>
            );
          })}
          <label className={clsx(pill, draft.amount === 'other' ? chosenPill : plainPill)}>
            <input
              type="radio"
              name={`${id}-amount`}
              className="sr-only"
              checked={draft.amount === 'other'}
              onChange={() => {
                set('amount', 'other');
                requestAnimationFrame(() => document.getElementById(`${id}-other`)?.focus());
              }}
              aria-describedby={amountDescribedBy}
            />
            Other amount
          </label>
        </div>
        {draft.amount === 'other' && (
          <div className="mt-1 flex flex-wrap items-center gap-2">
            <label htmlFor={`${id}-other`} className="text-ink-900">
              Amount in dollars
            </label>
            <span className="relative">
              <span aria-hidden="true" className="absolute top-1/2 left-3 -translate-y-1/2 text-ink-600">
                $
              </span>
              <input
                id={`${id}-other`}
                inputMode="numeric"
                autoComplete="off"
                enterKeyHint="next"
                value={draft.otherAmount}
                onChange={(e) => set('otherAmount', e.target.value)}
                className={clsx(boxClass, 'min-h-11 w-32 pl-7 tabular-nums', amountError ? 'border-festive-700' : '')}
                aria-invalid={amountError ? true : undefined}
                aria-describedby={amountDescribedBy}
              />
            </span>
          </div>
        )}
        <FieldError id={`${id}-amount-error`} error={amountError} />
      </fieldset>

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-1 font-semibold text-ink-900">Who is it for?</legend>
        <FormField
          id={fieldId('recipientName')}
          label="Their name"
          autoComplete="off"
          maxLength={80}
          value={draft.recipientName}
          onChange={(e) => set('recipientName', e.target.value)}
          error={errors.recipientName}
        />
        <FormField
          id={fieldId('recipientEmail')}
          label="Their email address"
          optional
          type="email"
          inputMode="email"
          autoComplete="off"
          hint="Leave empty to get it yourself to print and give."
          maxLength={254}
          value={draft.recipientEmail}
          onChange={(e) => set('recipientEmail', e.target.value)}
          error={errors.recipientEmail}
        />
      </fieldset>

      <div className="flex flex-col gap-1.5">
        <label htmlFor={fieldId('message')} className="text-sm font-semibold text-ink-900">
          A message for them <span className="font-normal text-ink-600">(optional)</span>
        </label>
        <textarea
          id={fieldId('message')}
          rows={3}
          maxLength={VOUCHER_MESSAGE_MAX}
          value={draft.message}
          onChange={(e) => set('message', e.target.value)}
          className={clsx(boxClass, errors.message ? 'border-festive-700' : 'border-ink-600/70')}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={[`${id}-count`, errors.message && `${id}-message-error`].filter(Boolean).join(' ')}
        />
        <p id={`${id}-count`} className="text-right text-sm text-ink-600 tabular-nums" data-testid="message-count">
          {draft.message.length} / {VOUCHER_MESSAGE_MAX}
          <span className="sr-only"> characters, {left} left</span>
        </p>
        <FieldError id={`${id}-message-error`} error={errors.message} />
      </div>

      <FormField
        id={fieldId('sendOn')}
        type="date"
        label="When should we send it?"
        hint="Today, or any day in the next 60 days. The e-mail goes at 9 am (Sydney time) that day."
        min={today}
        max={lastSendDay(today)}
        value={draft.sendOn || today}
        onChange={(e) => set('sendOn', e.target.value)}
        error={errors.sendOn}
        className="sm:max-w-xs"
      />

      <Button type="submit" disabled={busy} aria-busy={busy} className="self-stretch sm:self-start sm:min-w-56">
        {busy ? 'Preparing payment…' : 'Continue to payment'}
      </Button>
    </form>
  );
}
