import { ACCESS_NEED_LABELS, ACCESS_NEEDS } from '@kringle/contracts/access-needs';
import { ACCESS_CONSENT, needsConsent } from '@kringle/contracts/consent';
import { DETAILS_LIMITS, type BookingDetails } from '@kringle/contracts/booking-details';
import { useId } from 'react';
import { Button } from '../../components/ui/button';
import { ErrorText, input, label } from '../parts/form-parts';

/** A child as typed at the desk: no age until one is chosen, so a default is never sold as the child's. */
export interface ChildRow {
  firstName: string;
  age: number | null;
}
/** `consent`: the parent, asked at the desk, agrees to keep the access needs (the API requires it with any). */
export type DetailsInput = Omit<BookingDetails, 'children'> & { children: ChildRow[]; consent?: boolean };

export const NO_CHILD: ChildRow = { firstName: '', age: null };
const AGES = Array.from({ length: DETAILS_LIMITS.maxChildAge + 1 }, (_, age) => age);

/** The form's name for a child's field: its errors are keyed by it and the first one is focused by it. */
export const childField = (row: number, field: keyof ChildRow) => `child.${row}.${field}`;

interface Props {
  details: DetailsInput;
  onChange: (update: (d: DetailsInput) => DetailsInput) => void;
  /** The chosen session's type takes pets (pet nights): only then is the family asked about them. */
  allowsPets: boolean;
  errors: Partial<Record<string, string>>;
}

/** Who's coming to the photo: children (name and age), adults, pets on pet nights, access needs and a note. */
export function WhosComingFields({ details, onChange, allowsPets, errors }: Props) {
  const id = useId();
  const setChild = (i: number, next: Partial<ChildRow>) =>
    onChange((d) => ({ ...d, children: d.children.map((c, j) => (j === i ? { ...c, ...next } : c)) }));
  return (
    <fieldset className="min-w-0 space-y-3">
      <legend className="mb-2 text-xl font-semibold">Who&apos;s coming</legend>
      {details.children.map((child, i) => {
        const nameId = `${id}-c${i}-name`;
        const ageId = `${id}-c${i}-age`;
        const nameError = errors[childField(i, 'firstName')];
        const ageError = errors[childField(i, 'age')];
        return (
          <div key={i} className="space-y-1">
            {/* On a phone the name takes the whole line, and its age and Remove the next: side by side left the name a
               few letters wide. */}
            <div className="flex flex-wrap items-end gap-2">
              <div className={`${label} flex-1 basis-full sm:basis-0`}>
                <label htmlFor={nameId}>Child {i + 1} first name</label>
                <input
                  id={nameId}
                  name={childField(i, 'firstName')}
                  value={child.firstName}
                  onChange={(e) => setChild(i, { firstName: e.target.value })}
                  maxLength={DETAILS_LIMITS.maxFirstName}
                  autoComplete="off"
                  className={input}
                  aria-invalid={nameError ? true : undefined}
                  aria-describedby={nameError ? `${nameId}-error` : undefined}
                />
              </div>
              {/* The select beside its label, not inside it: inside, the label's text would be every age too. */}
              <div className={`${label} w-28 shrink-0`}>
                <label htmlFor={ageId}>Age</label>
                <select
                  id={ageId}
                  name={childField(i, 'age')}
                  value={child.age ?? ''}
                  onChange={(e) => setChild(i, { age: e.target.value === '' ? null : Number(e.target.value) })}
                  required
                  className={input}
                  aria-invalid={ageError ? true : undefined}
                  aria-describedby={ageError ? `${ageId}-error` : undefined}
                >
                  <option value="">Choose</option>
                  {AGES.map((age) => (
                    <option key={age} value={age}>
                      {age}
                    </option>
                  ))}
                </select>
              </div>
              <Button
                variant="ghost"
                className="shrink-0"
                aria-label={`Remove child ${i + 1}`}
                onClick={() => onChange((d) => ({ ...d, children: d.children.filter((_, j) => j !== i) }))}
              >
                Remove
              </Button>
            </div>
            {nameError && <ErrorText id={`${nameId}-error`}>{nameError}</ErrorText>}
            {ageError && <ErrorText id={`${ageId}-error`}>{ageError}</ErrorText>}
          </div>
        );
      })}
      <Button variant="secondary" onClick={() => onChange((d) => ({ ...d, children: [...d.children, NO_CHILD] }))}>
        Add a child
      </Button>
      <div className="grid grid-cols-2 gap-3">
        <label className={label}>
          Adults
          <input
            type="number"
            min={0}
            max={DETAILS_LIMITS.maxAdults}
            value={details.adults}
            onChange={(e) => onChange((d) => ({ ...d, adults: Number(e.target.value) }))}
            className={input}
          />
        </label>
        {allowsPets && (
          <label className={label}>
            Pets
            <input
              type="number"
              min={0}
              max={DETAILS_LIMITS.maxPets}
              value={details.pets}
              onChange={(e) => onChange((d) => ({ ...d, pets: Number(e.target.value) }))}
              className={input}
            />
          </label>
        )}
      </div>
      <fieldset>
        <legend className="font-semibold">Access needs</legend>
        {ACCESS_NEEDS.map((need) => (
          <label key={need} className="flex min-h-11 items-center gap-2">
            <input
              type="checkbox"
              className="size-5"
              checked={details.accessNeeds.includes(need)}
              onChange={(e) =>
                onChange((d) => ({
                  ...d,
                  accessNeeds: e.target.checked ? [...d.accessNeeds, need] : d.accessNeeds.filter((n) => n !== need),
                }))
              }
            />
            {ACCESS_NEED_LABELS[need]}
          </label>
        ))}
        {needsConsent(details) && (
          <label className="mt-1 flex items-start gap-2 rounded-lg bg-amber-50 p-2">
            <input
              type="checkbox"
              className="mt-0.5 size-5 shrink-0"
              checked={details.consent === true}
              onChange={(e) => onChange((d) => ({ ...d, consent: e.target.checked }))}
            />
            <span>Ask the parent, and tick if they agree: “{ACCESS_CONSENT.text}”</span>
          </label>
        )}
      </fieldset>
      <label className={label}>
        Note for Santa
        <input
          value={details.noteForSanta}
          maxLength={DETAILS_LIMITS.maxNote}
          onChange={(e) => onChange((d) => ({ ...d, noteForSanta: e.target.value }))}
          className={input}
        />
      </label>
    </fieldset>
  );
}
