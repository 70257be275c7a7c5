import { useId, useState, type FormEvent } from 'react';
import { isFormValid } from '@kringle/contracts/form-errors';
import { Button } from '../ui/button';
import { formatCardNumber, formatExpiry, validateCard, type CardErrors, type CardFields } from './card-validation';

const EMPTY: CardFields = { number: '', expiry: '', cvc: '', name: '' };
const NO_ERRORS: CardErrors = { number: '', expiry: '', cvc: '', name: '' };

interface FieldProps {
  id: string;
  label: string;
  hint?: string;
  error: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: string;
  numeric?: boolean;
  maxLength?: number;
  placeholder?: string;
}

function Field({ id, label, hint, error, value, onChange, autoComplete, numeric, maxLength, placeholder }: FieldProps) {
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium text-ink-900">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-ink-600">
          {hint}
        </p>
      )}
      <input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete={autoComplete}
        inputMode={numeric ? 'numeric' : undefined}
        maxLength={maxLength}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={
          'min-h-12 w-full rounded-xl border-2 bg-cream-50 px-3 text-lg text-ink-900 placeholder:text-ink-600/60 ' +
          'focus:border-festive-700 focus:outline-none ' +
          (error ? 'border-festive-700' : 'border-cream-300')
        }
      />
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-festive-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The card form for the local Stripe sandbox (no real card ever goes here): number, expiry,
 * security code and name, checked in the browser first so mistakes read in plain words.
 */
export function SandboxCardForm({
  payLabel,
  busy,
  onPay,
  formId,
  payInBar = false,
}: {
  payLabel: string;
  busy: boolean;
  onPay: (card: CardFields) => void;
  formId?: string;
  /** On a phone, Pay is in the bottom bar (a submit button with `form={formId}`), not here. */
  payInBar?: boolean;
}) {
  const id = useId();
  const [fields, setFields] = useState<CardFields>(EMPTY);
  const [errors, setErrors] = useState<CardErrors>(NO_ERRORS);
  const set = (key: keyof CardFields) => (value: string) => {
    setFields((f) => ({ ...f, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: '' }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateCard(fields);
    setErrors(found);
    if (!isFormValid(found)) {
      const first = (Object.keys(found) as (keyof CardFields)[]).find((k) => found[k]);
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    onPay(fields);
  };

  return (
    <form id={formId} noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label="Card details">
      <Field
        id={`${id}-number`}
        label="Card number"
        error={errors.number}
        value={fields.number}
        onChange={(v) => set('number')(formatCardNumber(v))}
        autoComplete="cc-number"
        numeric
        maxLength={23}
        placeholder="1234 1234 1234 1234"
      />
      <div className="grid grid-cols-2 gap-3">
        <Field
          id={`${id}-expiry`}
          label="Expiry date"
          hint="MM / YY"
          error={errors.expiry}
          value={fields.expiry}
          onChange={(v) => set('expiry')(formatExpiry(v))}
          autoComplete="cc-exp"
          numeric
          maxLength={7}
        />
        <Field
          id={`${id}-cvc`}
          label="Security code"
          hint="3 or 4 digits"
          error={errors.cvc}
          value={fields.cvc}
          onChange={set('cvc')}
          autoComplete="cc-csc"
          numeric
          maxLength={4}
        />
      </div>
      <Field
        id={`${id}-name`}
        label="Name on card"
        error={errors.name}
        value={fields.name}
        onChange={set('name')}
        autoComplete="cc-name"
      />
      {!payInBar && (
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? 'Paying…' : payLabel}
        </Button>
      )}
    </form>
  );
}
