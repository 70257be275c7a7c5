import { addDays, localDateOf, zonedToInstant } from '@kringle/contracts/dates';
import type { PromoCodeBody, PromoKind } from '@kringle/contracts/promos';
import type { StaffCatalogue } from '@kringle/contracts/staff';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { control, ErrorText, label, TextField } from '../parts/form-parts';
import { LocationChoices } from '../parts/location-choices';

type TextName = 'code' | 'value' | 'validFrom' | 'validTo' | 'maxUses' | 'maxUsesPerFamily' | 'minSpend';
type Field = TextName | 'locationIds';
export type FieldErrors = Partial<Record<Field, string>>;
/** What is typed, as typed: turned into the API's numbers and instants on submit. */
type Texts = Record<TextName, string>;
const EMPTY: Texts = {
  code: '',
  value: '',
  validFrom: '',
  validTo: '',
  maxUses: '',
  maxUsesPerFamily: '1',
  minSpend: '',
};

/** The API's field paths (details[].path) as this form's fields. */
const FIELD_OF: Record<string, Field> = {
  'body.code': 'code',
  'body.value': 'value',
  'body.validFrom': 'validFrom',
  'body.validTo': 'validTo',
  'body.locationIds': 'locationIds',
  'body.maxUses': 'maxUses',
  'body.maxUsesPerFamily': 'maxUsesPerFamily',
  'body.minSpendCents': 'minSpend',
};

/** A refusal's messages beside their fields; a taken code beside the code. Null when none names a field. */
export function fieldErrorsOf(err: unknown): FieldErrors | null {
  if (!(err instanceof ApiProblem)) return null;
  if (err.code === 'PROMO_CODE_TAKEN') return { code: err.message };
  const errors: FieldErrors = {};
  for (const d of err.details) {
    const field = FIELD_OF[d.path];
    if (field) errors[field] ??= d.message;
  }
  return Object.keys(errors).length ? errors : null;
}

const cents = (dollars: string) => Math.round(Number(dollars) * 100);
const optional = (text: string, toNumber: (t: string) => number) => (text.trim() ? toNumber(text) : null);

/**
 * A manager's new promo code. Dates are whole days in the location's zone: from the first day's start to
 * the last day's end. Amounts are typed in dollars and sent in cents; the API checks every rule.
 */
export function PromoCodeForm({
  locations,
  timezone,
  onCreate,
}: {
  locations: StaffCatalogue['locations'];
  timezone: string;
  /** Resolves to the field errors to show, or null once the code is made. */
  onCreate: (body: PromoCodeBody) => Promise<FieldErrors | null>;
}) {
  const today = localDateOf(new Date(), timezone);
  const [text, setText] = useState<Texts>(() => ({ ...EMPTY, validFrom: today, validTo: addDays(today, 30) }));
  const [kind, setKind] = useState<PromoKind>('percent');
  const [locationIds, setLocationIds] = useState<string[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const kindId = useId();
  const field = (name: TextName, fieldLabel: string, type = 'number') => (
    <TextField
      name={name}
      label={fieldLabel}
      type={type}
      value={text[name]}
      onChange={(v) => setText((t) => ({ ...t, [name]: v }))}
      error={errors[name]}
    />
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing: FieldErrors = {
      ...(text.code.trim() ? {} : { code: 'Enter the code families will type.' }),
      ...(Number(text.value) > 0 ? {} : { value: kind === 'percent' ? 'Enter a percent.' : 'Enter an amount.' }),
      ...(text.validFrom ? {} : { validFrom: 'Choose the first day.' }),
      ...(text.validTo ? {} : { validTo: 'Choose the last day.' }),
    };
    if (Object.keys(missing).length) return setErrors(missing);
    setBusy(true);
    const refused = await onCreate({
      code: text.code,
      kind,
      value: kind === 'percent' ? Number(text.value) : cents(text.value),
      validFrom: zonedToInstant(text.validFrom, '00:00', timezone).toISOString(),
      // The last day's end: a second before the next day starts.
      validTo: new Date(zonedToInstant(addDays(text.validTo, 1), '00:00', timezone).getTime() - 1000).toISOString(),
      locationIds: locationIds.length ? locationIds : null,
      maxUses: optional(text.maxUses, Number),
      maxUsesPerFamily: Number(text.maxUsesPerFamily),
      minSpendCents: optional(text.minSpend, cents),
    });
    setBusy(false);
    setErrors(refused ?? {});
    if (refused) return;
    // The dates and the per-family limit stay: the next code is often for the same weeks.
    setText((t) => ({ ...t, code: '', value: '', maxUses: '', minSpend: '' }));
    setLocationIds([]);
  }

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-labelledby="new-promo-heading"
      className="flex flex-col gap-4 rounded-2xl bg-cream-50 p-4 ring-1 ring-cream-300"
    >
      <h2 id="new-promo-heading" className="text-xl font-semibold">
        New promo code
      </h2>
      <div className="grid gap-4 sm:grid-cols-3">
        {field('code', 'Code', 'text')}
        <div className={label}>
          <label htmlFor={kindId}>Discount</label>
          <select id={kindId} className={control} value={kind} onChange={(e) => setKind(e.target.value as PromoKind)}>
            <option value="percent">Percent off</option>
            <option value="amount">Dollars off</option>
          </select>
        </div>
        {field('value', kind === 'percent' ? 'Percent off (1 to 100)' : 'Dollars off')}
        {field('validFrom', 'First day', 'date')}
        {field('validTo', 'Last day', 'date')}
        {field('minSpend', 'Minimum spend in dollars (optional)')}
        {field('maxUses', 'Uses in all (blank: no limit)')}
        {field('maxUsesPerFamily', 'Uses per family')}
      </div>
      <p className="text-sm text-ink-700">Days are whole days in {timezone.replace(/_/g, ' ')} time.</p>
      <LocationChoices legend="Where" locations={locations} chosen={locationIds} onChange={setLocationIds} />
      {errors.locationIds && <ErrorText id="promo-locations-error">{errors.locationIds}</ErrorText>}
      <Button type="submit" className="self-start" disabled={busy}>
        {busy ? 'Creating…' : 'Create code'}
      </Button>
    </form>
  );
}
