import { ACCESS_NEED_LABELS, ACCESS_NEEDS, type AccessNeed } from '@kringle/contracts/access-needs';
import { EMPTY_DETAILS, type BookingDetails } from '@kringle/contracts/booking-details';
import { formatClockTime } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import type { StaffBooking, StaffCatalogue } from '@kringle/contracts/staff';
import { useState, type FormEvent } from 'react';
import { Button } from '../components/ui/button';
import { ApiProblem, postJson } from './staff-client';
import { useRunSheet } from './use-run-sheet';

type Location = StaffCatalogue['locations'][number];
const input = 'min-h-11 rounded-lg border border-cream-300 bg-cream-50 px-3 text-base font-normal';
const label = 'flex flex-col gap-1 font-semibold';

/** Sell a free session later today to a family at the set, paid in store. */
export function WalkInPage({ location, catalogue, initialSlotId, today }: { location: Location; catalogue: StaffCatalogue; initialSlotId: string | null; today: string }) {
  const { sheet, reload } = useRunSheet(location.id, today);
  const free = (sheet?.items ?? []).filter((i) => i.slot.kind === 'session' && i.slot.state === 'free' && !i.booking).map((i) => i.slot);
  const [slotId, setSlotId] = useState(initialSlotId ?? '');
  const [details, setDetails] = useState<BookingDetails>({ ...EMPTY_DETAILS, children: [{ firstName: '', age: 5 }] });
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  const [problem, setProblem] = useState<{ message: string; details: string[] } | null>(null);
  const [sold, setSold] = useState<StaffBooking | null>(null);
  const [busy, setBusy] = useState(false);

  // The chosen session, or the next free one when it has gone (sold elsewhere, or started).
  const slot = free.find((s) => s.id === slotId) ?? free[0];
  const packages = catalogue.packages.filter((p) => !slot || !p.slotTypeSlugs || p.slotTypeSlugs.includes(slot.slotType.slug));
  const total = [...catalogue.packages, ...catalogue.addOns].reduce((sum, p) => sum + (quantities[p.id] ?? 0) * p.priceCents, 0);
  const setChild = (i: number, change: Partial<BookingDetails['children'][number]>) =>
    setDetails((d) => ({ ...d, children: d.children.map((c, j) => (j === i ? { ...c, ...change } : c)) }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const lines = (items: { id: string }[]) => items.filter((p) => (quantities[p.id] ?? 0) > 0).map((p) => ({ id: p.id, quantity: quantities[p.id]! }));
    setBusy(true);
    setProblem(null);
    try {
      const booking = await postJson<StaffBooking>('/staff/walk-ins', {
        slotId: slot?.id,
        firstName: String(form.get('firstName') ?? ''),
        lastName: String(form.get('lastName') ?? ''),
        ...(email ? { email } : {}),
        details: { ...details, children: details.children.filter((c) => c.firstName.trim()) },
        packages: lines(packages),
        addOns: lines(catalogue.addOns),
      });
      setSold(booking);
      setQuantities({});
      setDetails({ ...EMPTY_DETAILS, children: [{ firstName: '', age: 5 }] });
      event.currentTarget?.reset();
    } catch (err) {
      setProblem({ message: err instanceof Error ? err.message : 'The sale did not go through.', details: err instanceof ApiProblem ? err.details.map((d) => d.message) : [] });
    } finally {
      setBusy(false);
      await reload();
    }
  }

  return (
    <section aria-labelledby="walk-in-title" className="space-y-4">
      <h1 id="walk-in-title" className="text-3xl font-semibold">
        Walk-in at {location.name}
      </h1>
      {sold && (
        <p role="status" className="rounded-xl bg-pine-50 px-4 py-3 font-semibold text-pine-800 ring-1 ring-pine-700">
          Sold: {sold.reference} for {sold.customer.firstName} {sold.customer.lastName}, {sold.slotType.name} at {formatClockTime(sold.slot.startAt, location.timezone)} ({formatAud(sold.amountCents)}, paid in
          store){sold.customer.email ? `. Receipt sent to ${sold.customer.email}.` : '.'}
        </p>
      )}
      <form onSubmit={(e) => void submit(e)} className="grid gap-6 rounded-2xl bg-cream-50 p-5 ring-1 ring-cream-300 lg:grid-cols-2">
        <fieldset className="min-w-0 space-y-3">
          <legend className="mb-2 text-xl font-semibold">Session and family</legend>
          <label className={label}>
            Free session today
            <select className={input} value={slot?.id ?? ''} onChange={(e) => setSlotId(e.target.value)} required>
              {free.length === 0 && <option value="">No free sessions left today</option>}
              {free.map((s) => (
                <option key={s.id} value={s.id}>
                  {formatClockTime(s.startAt, location.timezone)} · {s.slotType.name}
                </option>
              ))}
            </select>
          </label>
          <div className="grid grid-cols-2 gap-3">
            <label className={label}>
              First name
              <input name="firstName" required maxLength={60} autoComplete="off" className={input} />
            </label>
            <label className={label}>
              Last name
              <input name="lastName" required maxLength={60} autoComplete="off" className={input} />
            </label>
          </div>
          <label className={label}>
            E-mail for the receipt (optional)
            <input name="email" type="email" autoComplete="off" className={input} />
          </label>
        </fieldset>
        <fieldset className="min-w-0 space-y-3">
          <legend className="mb-2 text-xl font-semibold">Who&apos;s coming</legend>
          {details.children.map((child, i) => (
            <div key={i} className="flex items-end gap-2">
              <label className={`${label} flex-1`}>
                Child {i + 1} first name
                <input value={child.firstName} onChange={(e) => setChild(i, { firstName: e.target.value })} maxLength={40} className={input} />
              </label>
              <label className={`${label} w-20`}>
                Age
                <input type="number" min={0} max={17} value={child.age} onChange={(e) => setChild(i, { age: Number(e.target.value) })} className={input} />
              </label>
              <Button variant="ghost" aria-label={`Remove child ${i + 1}`} onClick={() => setDetails((d) => ({ ...d, children: d.children.filter((_, j) => j !== i) }))}>
                Remove
              </Button>
            </div>
          ))}
          <Button variant="secondary" onClick={() => setDetails((d) => ({ ...d, children: [...d.children, { firstName: '', age: 5 }] }))}>
            Add a child
          </Button>
          <div className="grid grid-cols-2 gap-3">
            <label className={label}>
              Adults
              <input type="number" min={0} max={8} value={details.adults} onChange={(e) => setDetails((d) => ({ ...d, adults: Number(e.target.value) }))} className={input} />
            </label>
            <label className={label}>
              Pets (pet nights)
              <input type="number" min={0} max={3} value={details.pets} onChange={(e) => setDetails((d) => ({ ...d, pets: Number(e.target.value) }))} className={input} />
            </label>
          </div>
          <fieldset>
            <legend className="font-semibold">Access needs</legend>
            {ACCESS_NEEDS.map((need: AccessNeed) => (
              <label key={need} className="flex min-h-11 items-center gap-2">
                <input
                  type="checkbox"
                  className="size-5"
                  checked={details.accessNeeds.includes(need)}
                  onChange={(e) => setDetails((d) => ({ ...d, accessNeeds: e.target.checked ? [...d.accessNeeds, need] : d.accessNeeds.filter((n) => n !== need) }))}
                />
                {ACCESS_NEED_LABELS[need]}
              </label>
            ))}
          </fieldset>
          <label className={label}>
            Note for Santa
            <input value={details.noteForSanta} maxLength={200} onChange={(e) => setDetails((d) => ({ ...d, noteForSanta: e.target.value }))} className={input} />
          </label>
        </fieldset>
        <fieldset className="space-y-2 lg:col-span-2">
          <legend className="mb-2 text-xl font-semibold">Packages and add-ons</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {[...packages, ...catalogue.addOns].map((p) => (
              <label key={p.id} className="flex items-center justify-between gap-3 rounded-lg bg-cream-100 px-3 py-1">
                <span>
                  {p.name} <span className="text-ink-700">({formatAud(p.priceCents)})</span>
                </span>
                <select aria-label={`Quantity of ${p.name}`} className={input} value={quantities[p.id] ?? 0} onChange={(e) => setQuantities((q) => ({ ...q, [p.id]: Number(e.target.value) }))}>
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
          <Button type="submit" variant="confirm" disabled={busy || !slot}>
            {busy ? 'Selling…' : 'Sell and mark paid in store'}
          </Button>
        </div>
        {problem && (
          <div role="alert" className="rounded-lg bg-festive-50 px-4 py-3 text-festive-800 lg:col-span-2">
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
