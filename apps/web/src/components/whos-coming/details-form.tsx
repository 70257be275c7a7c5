import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { ACCESS_NEED_LABELS, ACCESS_NEEDS } from '@kringle/contracts/access-needs';
import { needsConsent } from '@kringle/contracts/consent';
import {
  bookingDetailsSchemaFor,
  DETAILS_LIMITS,
  type BookingDetails,
  type BookingDetailsInput,
  type DetailsWithConsent,
} from '@kringle/contracts/booking-details';
import { AccessConsent } from './access-consent';
import { CountStepper } from './count-stepper';
import { FieldError } from './field-error';

export interface DetailsFormProps {
  id: string;
  /** With `consent: true` when the parent already agreed to keep the access needs shown. */
  defaultValues: DetailsWithConsent;
  allowsPets: boolean;
  maxPeople?: number;
  /** The details, with `consent: true` when they carry access needs (the API requires it). */
  onValid: (details: DetailsWithConsent) => void | Promise<void>;
  /** Field errors from the API (paths like `body.children.0.firstName`). */
  serverErrors?: { path: string; message: string }[];
  /** Called once the form is in the page (a submit button outside it can be enabled then). */
  onMounted?: () => void;
}

/** Pets are for pet nights only: a pet night's pets do not carry over to another session (or a move off one). */
export const fitDetails = (d: DetailsWithConsent, allowsPets: boolean): DetailsWithConsent =>
  allowsPets ? d : { ...d, pets: 0 };

const input =
  'min-h-11 w-full rounded-xl border border-cream-300 bg-white px-3 text-base text-ink-900 ' +
  'aria-invalid:border-festive-700';
const AGES = Array.from({ length: DETAILS_LIMITS.maxChildAge + 1 }, (_, i) => i);

/**
 * Who's coming: children (first name and age), adults, pets on pet nights, access needs and notes.
 * The shared contract schema validates it, so the form says exactly what the API would.
 */
export function DetailsForm({
  id,
  defaultValues,
  allowsPets,
  maxPeople = DETAILS_LIMITS.defaultMaxPeople,
  onValid,
  serverErrors,
  onMounted,
}: DetailsFormProps) {
  const resolver = useMemo(
    () => zodResolver(bookingDetailsSchemaFor({ maxPeople, allowsPets })),
    [maxPeople, allowsPets],
  );
  const { consent: agreedBefore, ...start } = defaultValues;
  const form = useForm<BookingDetailsInput, unknown, BookingDetails>({
    resolver,
    defaultValues: start,
    mode: 'onTouched',
  });
  const children = useFieldArray({ control: form.control, name: 'children' });
  const { errors } = form.formState;
  // The parent's consent lives beside the form: the details schema is strict, and it is asked afresh each time.
  const [consent, setConsent] = useState(agreedBefore === true);
  const [consentError, setConsentError] = useState<string>();
  const [needs, note] = useWatch({ control: form.control, name: ['accessNeeds', 'accessNote'] });
  const asksConsent = needsConsent({ accessNeeds: needs || [], accessNote: note });

  useEffect(() => onMounted?.(), [onMounted]);
  useEffect(() => {
    for (const e of serverErrors ?? [])
      if (!e.path.endsWith('consent'))
        form.setError(e.path.replace(/^body\.?/, '') as FieldPath<BookingDetailsInput>, { message: e.message });
  }, [serverErrors, form]);
  const consentProblem = consent
    ? undefined
    : (consentError ?? serverErrors?.find((e) => e.path.endsWith('consent'))?.message);

  const submit = (details: BookingDetails) => {
    if (!needsConsent(details)) return onValid(details);
    if (!consent) {
      setConsentError('Tick the box to agree, or remove the access needs and note.');
      document.getElementById(`${id}-consent`)?.focus();
      return;
    }
    return onValid({ ...details, consent: true });
  };

  // A field array validates every row on append (react-hook-form), so a child just added would
  // show red before anything is typed: a row's error shows once its field is left or the form sent.
  const { touchedFields, isSubmitted } = form.formState;
  const childErrors = errors.children;
  const shownChild = (i: number, key: 'firstName' | 'age') =>
    isSubmitted || touchedFields.children?.[i]?.[key] ? childErrors?.[i]?.[key]?.message : undefined;
  return (
    <form
      id={id}
      noValidate
      onSubmit={(e) => void form.handleSubmit(submit)(e)}
      className="flex flex-col gap-5"
      aria-label="Who's coming"
    >
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 font-semibold text-ink-900">Children</legend>
        {children.fields.map((field, i) => {
          const nameError = shownChild(i, 'firstName');
          const ageError = shownChild(i, 'age');
          return (
            <div
              key={field.id}
              className="grid grid-cols-[minmax(0,1fr)_4.75rem_auto] items-start gap-2 rounded-xl bg-cream-100 p-2"
              data-testid="child-row"
            >
              <div className="flex min-w-0 flex-col gap-1">
                <label htmlFor={`${id}-c${i}-name`} className="text-sm text-ink-700">
                  First name
                </label>
                <input
                  id={`${id}-c${i}-name`}
                  className={input}
                  autoComplete="off"
                  aria-invalid={nameError ? true : undefined}
                  aria-describedby={`${id}-c${i}-name-err`}
                  {...form.register(`children.${i}.firstName`)}
                />
                <FieldError id={`${id}-c${i}-name-err`} message={nameError} />
              </div>
              <div className="flex min-w-0 flex-col gap-1">
                <label htmlFor={`${id}-c${i}-age`} className="text-sm text-ink-700">
                  Age
                </label>
                <select
                  id={`${id}-c${i}-age`}
                  className={input}
                  aria-invalid={ageError ? true : undefined}
                  aria-describedby={`${id}-c${i}-age-err`}
                  {...form.register(`children.${i}.age`, {
                    setValueAs: (v: unknown) => (v === '' || v === undefined ? Number.NaN : Number(v)),
                  })}
                >
                  <option value="">–</option>
                  {AGES.map((a) => (
                    <option key={a} value={a}>
                      {a}
                    </option>
                  ))}
                </select>
                <FieldError id={`${id}-c${i}-age-err`} message={ageError} />
              </div>
              <button
                type="button"
                className="mt-6 min-h-11 rounded-xl px-2 text-sm font-semibold text-festive-800 hover:bg-cream-200"
                aria-label={`Remove child ${i + 1}`}
                onClick={() => children.remove(i)}
              >
                Remove
              </button>
            </div>
          );
        })}
        <FieldError
          id={`${id}-children-err`}
          message={isSubmitted ? (childErrors?.message ?? childErrors?.root?.message) : undefined}
        />
        {children.fields.length < DETAILS_LIMITS.maxChildren && (
          <button
            type="button"
            className={
              'min-h-11 self-start rounded-xl border border-dashed border-festive-700 px-4 font-semibold ' +
              'text-festive-800 hover:bg-cream-100'
            }
            onClick={() =>
              children.append(
                { firstName: '', age: Number.NaN },
                { focusName: `children.${children.fields.length}.firstName` },
              )
            }
          >
            + Add a child
          </button>
        )}
      </fieldset>

      <div className="flex flex-col gap-2">
        <Controller
          control={form.control}
          name="adults"
          render={({ field }) => (
            <CountStepper
              label="Adults"
              value={field.value}
              max={DETAILS_LIMITS.maxAdults}
              onChange={(n) => form.setValue('adults', n, { shouldValidate: true })}
              describedBy={`${id}-adults-err`}
            />
          )}
        />
        <p className="text-sm text-ink-600">At most {maxPeople} people in the photo, children and adults together.</p>
        <FieldError id={`${id}-adults-err`} message={errors.adults?.message} />
        {allowsPets && (
          <>
            <Controller
              control={form.control}
              name="pets"
              render={({ field }) => (
                <CountStepper
                  label="Pets"
                  value={field.value}
                  max={DETAILS_LIMITS.maxPets}
                  onChange={(n) => form.setValue('pets', n, { shouldValidate: true })}
                  describedBy={`${id}-pets-err`}
                />
              )}
            />
            <p className="text-sm text-ink-600">On a lead or in a carrier, please.</p>
          </>
        )}
        <FieldError id={`${id}-pets-err`} message={errors.pets?.message} />
      </div>

      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 font-semibold text-ink-900">Access needs</legend>
        {ACCESS_NEEDS.map((need) => (
          <label key={need} className="flex min-h-11 items-center gap-3 text-ink-900">
            <input
              type="checkbox"
              value={need}
              className="size-5 accent-festive-700"
              {...form.register('accessNeeds')}
            />
            {ACCESS_NEED_LABELS[need]}
          </label>
        ))}
        <FieldError id={`${id}-needs-err`} message={errors.accessNeeds?.message} />
      </fieldset>

      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-anote`} className="text-sm text-ink-700">
          Anything Santa's team should know about access (optional)
        </label>
        <textarea
          id={`${id}-anote`}
          rows={2}
          className={`${input} py-2`}
          maxLength={DETAILS_LIMITS.maxNote + 20}
          aria-invalid={errors.accessNote ? true : undefined}
          aria-describedby={`${id}-anote-err`}
          {...form.register('accessNote')}
        />
        <FieldError id={`${id}-anote-err`} message={errors.accessNote?.message} />
      </div>
      {asksConsent && <AccessConsent formId={id} checked={consent} problem={consentProblem} onChange={setConsent} />}
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-santa`} className="text-sm text-ink-700">
          A note for Santa (optional)
        </label>
        <textarea
          id={`${id}-santa`}
          rows={2}
          className={`${input} py-2`}
          maxLength={DETAILS_LIMITS.maxNote + 20}
          aria-invalid={errors.noteForSanta ? true : undefined}
          aria-describedby={`${id}-santa-err`}
          {...form.register('noteForSanta')}
        />
        <FieldError id={`${id}-santa-err`} message={errors.noteForSanta?.message} />
      </div>
    </form>
  );
}
