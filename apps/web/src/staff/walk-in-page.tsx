import { EMPTY_DETAILS } from '@kringle/contracts/booking-details';
import { formatClockTime } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import { walkInBodySchema, type StaffBooking, type StaffCatalogue } from '@kringle/contracts/staff';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../components/ui/button';
import { familyName } from './booking-card';
import { control, ErrorText, input, label } from './form-parts';
import { ApiProblem } from '../lib/api-error';
import { downloadFile, postJson } from './staff-client';
import { useRunSheet } from './use-run-sheet';
import { childField, NO_CHILD, WhosComingFields, type DetailsInput } from './whos-coming-fields';

type Location = StaffCatalogue['locations'][number];

/** Everything about the family, cleared after each sale. */
interface Family {
  firstName: string;
  lastName: string;
  email: string;
  details: DetailsInput;
  quantities: Record<string, number>;
}
const NEW_FAMILY: Family = { firstName: '', lastName: '', email: '', details: { ...EMPTY_DETAILS, children: [NO_CHILD] }, quantities: {} };

/** Fields that show their own message (the children's too); the body's other problems are listed under the form. */
const FIELDS = ['firstName', 'lastName', 'email', 'packages'] as const;
type Field = (typeof FIELDS)[number];
const isField = (key: unknown): key is Field => FIELDS.includes(key as Field);
const isChildField = (key: unknown): key is 'firstName' | 'age' => key === 'firstName' || key === 'age';

/** Sell a free session later today to a family at the set, paid in store. */
export function WalkInPage({ location, catalogue, initialSlotId, today }: { location: Location; catalogue: StaffCatalogue; initialSlotId: string | null; today: string }) {
  const { sheet, reload } = useRunSheet(location.id, today);
  const free = (sheet?.items ?? []).filter((i) => i.slot.kind === 'session' && i.slot.state === 'free' && !i.booking).map((i) => i.slot);
  const id = useId();
  const [slotId, setSlotId] = useState(initialSlotId ?? '');
  // The next free session is proposed once, then stays the choice: when it goes (booked online, or
  // started), the form says so rather than selling another session in its place.
  if (!slotId && free[0]) setSlotId(free[0].id);
  const [family, setFamily] = useState<Family>(NEW_FAMILY);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [problem, setProblem] = useState<{ message: string; details: string[] } | null>(null);
  const [sold, setSold] = useState<StaffBooking | null>(null);
  const [busy, setBusy] = useState(false);
  const confirmation = useRef<HTMLParagraphElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const problemBox = useRef<HTMLDivElement>(null);

  // The sale is confirmed at the top while the button is at the bottom: take the view and the
  // focus there, so the staff member sees it (not just a form emptying) and a screen reader reads it.
  useEffect(() => {
    if (!sold) return;
    confirmation.current?.scrollIntoView?.({ block: 'center' });
    confirmation.current?.focus({ preventScroll: true });
  }, [sold]);
  // A refusal shows under the Sell button: on a phone, below the fold unless brought into view.
  useEffect(() => {
    if (problem) problemBox.current?.scrollIntoView?.({ block: 'center' });
  }, [problem]);

  const slot = free.find((s) => s.id === slotId);
  const gone = slotId && !slot ? sheet?.items.find((i) => i.slot.id === slotId)?.slot : undefined;
  const packages = catalogue.packages.filter((p) => !slot || !p.slotTypeSlugs || p.slotTypeSlugs.includes(slot.slotType.slug));
  const { details, quantities } = family;
  const total = [...catalogue.packages, ...catalogue.addOns].reduce((sum, p) => sum + (quantities[p.id] ?? 0) * p.priceCents, 0);
  const change = (next: Partial<Family>) => setFamily((f) => ({ ...f, ...next }));
  const setDetails = (update: (d: DetailsInput) => DetailsInput) => setFamily((f) => ({ ...f, details: update(f.details) }));
  const allowsPets = slot?.slotType.allowsPets ?? false;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const lines = (items: { id: string }[]) => items.filter((p) => (quantities[p.id] ?? 0) > 0).map((p) => ({ id: p.id, quantity: quantities[p.id]! }));
    const email = family.email.trim();
    // A row left empty is no child (a family of adults); one with a name or an age is, and needs both.
    const rows = details.children.flatMap((c, i) => (c.firstName.trim() || c.age !== null ? [i] : []));
    const body = {
      slotId: slot?.id,
      firstName: family.firstName,
      lastName: family.lastName,
      ...(email ? { email } : {}),
      // Pets only for a session that takes them: a number typed for a pet night is not sold with another session.
      details: { ...details, pets: allowsPets ? details.pets : 0, children: rows.map((i) => details.children[i]!) },
      packages: lines(packages),
      addOns: lines(catalogue.addOns),
    };
    // The API's own rules, checked here first so each message shows beside its field.
    const checked = walkInBodySchema.safeParse(body);
    const fieldErrors: Partial<Record<string, string>> = {};
    const others: string[] = [];
    for (const issue of checked.error?.issues ?? []) {
      const [key, list, n, field] = issue.path;
      const row = key === 'details' && list === 'children' && typeof n === 'number' && isChildField(field) ? rows[n] : undefined;
      if (isField(key)) fieldErrors[key] ??= issue.message;
      else if (row !== undefined && field === 'age' && details.children[row]!.age === null) fieldErrors[childField(row, 'age')] ??= `Choose an age for child ${row + 1}.`;
      else if (row !== undefined && isChildField(field)) fieldErrors[childField(row, field)] ??= issue.message;
      else others.push(issue.message);
    }
    setErrors(fieldErrors);
    setProblem(others.length > 0 ? { message: others.length === 1 ? others[0]! : 'Check the family’s details.', details: others } : null);
    if (!checked.success) {
      // The first field in the form's order with a message takes the focus.
      const order = ['firstName', 'lastName', 'email', ...details.children.flatMap((_, i) => [childField(i, 'firstName'), childField(i, 'age')]), 'packages'];
      const first = order.find((f) => fieldErrors[f]);
      if (first) form.current?.querySelector<HTMLElement>(first === 'packages' ? `[data-field="packages"] select` : `[name="${first}"]`)?.focus();
      return;
    }
    setBusy(true);
    setSold(null);
    try {
      const booking = await postJson<StaffBooking>('/staff/walk-ins', body);
      await reload();
      setSold(booking);
      // The next family starts from nothing: a name left over would sell under the previous one.
      // The sold session has left the list by now, so the next free one is proposed.
      setFamily(NEW_FAMILY);
      setSlotId('');
    } catch (err) {
      // The list first: a session just taken then shows as gone, above the refusal, before it is scrolled to.
      await reload();
      setProblem({ message: err instanceof Error ? err.message : 'The sale did not go through.', details: err instanceof ApiProblem ? err.details.map((d) => d.message) : [] });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="walk-in-title" className="space-y-4">
      <h1 id="walk-in-title" className="text-3xl font-semibold">
        Walk-in at {location.name}
      </h1>
      {sold && (
        <p ref={confirmation} tabIndex={-1} role="status" className="scroll-mt-4 rounded-xl bg-pine-50 px-4 py-3 font-semibold text-pine-800 ring-1 ring-pine-700 focus:outline-2 focus:outline-offset-2 focus:outline-pine-700">
          Sold: {sold.reference} for {familyName(sold.customer).fullname}, {sold.slotType.name} at {formatClockTime(sold.slot.startAt, location.timezone)} ({formatAud(sold.amountCents)}, paid in
          store){sold.attendance === 'checked_in' ? ', checked in: their session is on now' : ''}
          {sold.customer.email ? `. Receipt sent to ${sold.customer.email}.` : '.'}
        </p>
      )}
      {sold && (
        // Without an e-mail this is the family's only receipt; with one, paper if they ask.
        <Button variant="secondary" onClick={() => void downloadFile(`/staff/bookings/${sold.id}/receipt`, 'application/pdf', `tax-invoice-${sold.reference}.pdf`).catch(() => setProblem({ message: 'The tax invoice could not be downloaded. Please try again.', details: [] }))}>
          Tax invoice (PDF) for {sold.reference}
        </Button>
      )}
      <form ref={form} noValidate onSubmit={(e) => void submit(e)} className="grid gap-6 rounded-2xl bg-cream-50 p-5 ring-1 ring-cream-300 lg:grid-cols-2">
        <fieldset className="min-w-0 space-y-3">
          <legend className="mb-2 text-xl font-semibold">Session and family</legend>
          <label className={label}>
            Free session today
            <select
              className={input}
              value={slot?.id ?? ''}
              onChange={(e) => setSlotId(e.target.value)}
              required
              aria-invalid={gone ? true : undefined}
              aria-describedby={gone ? `${id}-gone` : undefined}
            >
              {free.length === 0 && <option value="">No free sessions left today</option>}
              {free.length > 0 && !slot && (
                <option value="" disabled>
                  Choose a session
                </option>
              )}
              {free.map((s) => (
                <option key={s.id} value={s.id}>
                  {formatClockTime(s.startAt, location.timezone)} · {s.slotType.name}
                </option>
              ))}
            </select>
          </label>
          {gone && (
            <ErrorText id={`${id}-gone`}>{`The ${formatClockTime(gone.startAt, location.timezone)} session is no longer free (booked online, or started). Choose another session.`}</ErrorText>
          )}
          <div className="grid grid-cols-2 gap-3">
            <TextField name="firstName" label="First name" value={family.firstName} onChange={(firstName) => change({ firstName })} error={errors.firstName} />
            <TextField name="lastName" label="Last name" value={family.lastName} onChange={(lastName) => change({ lastName })} error={errors.lastName} />
          </div>
          <TextField name="email" type="email" label="E-mail for the receipt (optional)" value={family.email} onChange={(email) => change({ email })} error={errors.email} />
        </fieldset>
        <WhosComingFields details={details} onChange={setDetails} allowsPets={allowsPets} errors={errors} />
        <fieldset data-field="packages" className="min-w-0 space-y-2 lg:col-span-2" aria-describedby={errors.packages ? `${id}-packages-error` : undefined}>
          <legend className="mb-2 text-xl font-semibold">Packages and add-ons</legend>
          {errors.packages && <ErrorText id={`${id}-packages-error`}>{errors.packages}</ErrorText>}
          <div className="grid gap-2 sm:grid-cols-2">
            {[...packages, ...catalogue.addOns].map((p) => (
              <label key={p.id} className="flex items-center justify-between gap-3 rounded-lg bg-cream-100 px-3 py-1">
                <span className="min-w-0">
                  {p.name} <span className="text-ink-700">({formatAud(p.priceCents)})</span>
                </span>
                <select
                  aria-label={`Quantity of ${p.name}`}
                  className={`${control} shrink-0`}
                  value={quantities[p.id] ?? 0}
                  onChange={(e) => change({ quantities: { ...quantities, [p.id]: Number(e.target.value) } })}
                >
                  {Array.from({ length: p.maxQuantity + 1 }, (_, n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-wrap items-center gap-4 lg:col-span-2">
          <span className="text-xl font-semibold">Total {formatAud(total)} (includes GST)</span>
          <Button type="submit" variant="confirm" disabled={busy || !slot} aria-describedby={gone ? `${id}-gone-here` : undefined}>
            {busy ? 'Selling…' : 'Sell and mark paid in store'}
          </Button>
          {/* Said again beside the button: on a phone the session field is far above it. */}
          {gone && (
            <span id={`${id}-gone-here`} className="font-semibold text-festive-800">
              Choose a session first: {formatClockTime(gone.startAt, location.timezone)} is no longer free.
            </span>
          )}
        </div>
        {problem && (
          <div ref={problemBox} role="alert" className="scroll-mb-4 rounded-lg bg-festive-50 px-4 py-3 text-festive-800 lg:col-span-2">
            <p className="font-semibold">{problem.message}</p>
            {problem.details.length > 1 && (
              <ul className="list-disc pl-5">
                {problem.details.map((d) => (
                  <li key={d}>{d}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </form>
    </section>
  );
}

/** A labelled input with its message outside the label, so the message is its description, not part of its name. */
function TextField({ name, label: text, type = 'text', value, onChange, error }: { name: string; label: string; type?: string; value: string; onChange: (value: string) => void; error?: string }) {
  const id = useId();
  return (
    <div className={label}>
      <label htmlFor={id}>{text}</label>
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={type === 'email' ? 254 : 60}
        autoComplete="off"
        className={input}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && <ErrorText id={`${id}-error`}>{error}</ErrorText>}
    </div>
  );
}
