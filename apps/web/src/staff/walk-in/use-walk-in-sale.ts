import type { StaffBooking, StaffCatalogue } from '@kringle/contracts/staff';
import { useState, type FormEvent, type RefObject } from 'react';
import { ApiProblem } from '../../lib/api-error';
import { postJson } from '../session/staff-client';
import { useRunSheet } from '../run-sheet/use-run-sheet';
import { checkWalkIn, NEW_FAMILY, walkInBody, type Family } from './walk-in-sale';
import type { DetailsInput } from './whos-coming-fields';

export interface SaleProblem {
  message: string;
  details: string[];
}

/**
 * The walk-in form's state: today's free sessions (the run sheet), the chosen one, the family, and
 * the sale itself (checked here first, then sent; the list is read again either way). `form` is
 * where a refused field takes the focus.
 */
export function useWalkInSale(
  locationId: string,
  catalogue: StaffCatalogue,
  initialSlotId: string | null,
  today: string,
  form: RefObject<HTMLFormElement | null>,
) {
  const { sheet, reload } = useRunSheet(locationId, today);
  const free = (sheet?.items ?? [])
    .filter((i) => i.slot.kind === 'session' && i.slot.state === 'free' && !i.booking)
    .map((i) => i.slot);
  const [slotId, setSlotId] = useState(initialSlotId ?? '');
  // The next free session is proposed once, then stays the choice: when it goes (booked online, or
  // started), the form says so rather than selling another session in its place.
  if (!slotId && free[0]) setSlotId(free[0].id);
  const [family, setFamily] = useState<Family>(NEW_FAMILY);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [problem, setProblem] = useState<SaleProblem | null>(null);
  const [sold, setSold] = useState<StaffBooking | null>(null);
  const [busy, setBusy] = useState(false);

  const slot = free.find((s) => s.id === slotId);
  const gone = slotId && !slot ? sheet?.items.find((i) => i.slot.id === slotId)?.slot : undefined;
  const packages = catalogue.packages.filter(
    (p) => !slot || !p.slotTypeSlugs || p.slotTypeSlugs.includes(slot.slotType.slug),
  );
  const total = [...catalogue.packages, ...catalogue.addOns].reduce(
    (sum, p) => sum + (family.quantities[p.id] ?? 0) * p.priceCents,
    0,
  );
  const change = (next: Partial<Family>) => setFamily((f) => ({ ...f, ...next }));
  const setDetails = (update: (d: DetailsInput) => DetailsInput) =>
    setFamily((f) => ({ ...f, details: update(f.details) }));
  const allowsPets = slot?.slotType.allowsPets ?? false;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { body, rows } = walkInBody(family, slot?.id, packages, catalogue.addOns, allowsPets);
    const { ok, fieldErrors, others, first } = checkWalkIn(family, body, rows);
    setErrors(fieldErrors);
    setProblem(
      others.length > 0
        ? { message: others.length === 1 ? others[0]! : 'Check the family’s details.', details: others }
        : null,
    );
    if (!ok) {
      if (first)
        form.current
          ?.querySelector<HTMLElement>(first === 'packages' ? `[data-field="packages"] select` : `[name="${first}"]`)
          ?.focus();
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
      setProblem({
        message: err instanceof Error ? err.message : 'The sale did not go through.',
        details: err instanceof ApiProblem ? err.details.map((d) => d.message) : [],
      });
    } finally {
      setBusy(false);
    }
  }

  return {
    free,
    slot,
    gone,
    setSlotId,
    family,
    change,
    setDetails,
    allowsPets,
    packages,
    total,
    errors,
    problem,
    setProblem,
    sold,
    busy,
    submit,
  };
}
