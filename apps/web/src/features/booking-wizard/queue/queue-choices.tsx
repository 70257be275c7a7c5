import { lazy, Suspense, useState } from 'react';
import type { BookingDetails } from '@kringle/contracts/booking-details';
import type { Location } from '@kringle/contracts/catalogue';
import { MAX_PACKAGES } from '@kringle/contracts/cart';
import { addDays, formatCalendarDay, localDateOf } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import { hours, times, type PolicyRules } from '@kringle/contracts/policy';
import type { QueueWants } from '@kringle/contracts/queue';
import { Button } from '../../../components/ui/button';
import { useGetPolicyQuery } from '../../../lib/policy-api';
import { serverNow } from '../../../lib/server-clock';
import { useWizardPackagesQuery } from '../checkout/api';
import { QuantityStepper } from '../checkout/quantity-stepper';
import { useWizardSelector } from '../state/booking-hooks';
import { WINDOWS, windowOf, type WindowKey } from './queue-windows';

const WhosComingSection = lazy(() => import('../../../components/whos-coming/whos-coming-section'));
const FORM_ID = 'queue-whos-coming';

/** The policy's rules in one sentence: the session's own dates are not known until it is held. */
const policyLine = (rules: PolicyRules) =>
  `Our booking policy: a free reschedule up to ${hours(rules.rescheduleCutoffHours)} before your session, ` +
  `${times(rules.rescheduleLimit)}, and a full refund if you cancel up to ${hours(rules.refundCutoffHours)} before it.`;

/** The season's days from today on, in the location's zone. */
function seasonDays(location: Location): string[] {
  const today = localDateOf(new Date(serverNow()), location.timezone);
  const days: string[] = [];
  for (let d = today > location.seasonStart ? today : location.seasonStart; d <= location.seasonEnd; d = addDays(d, 1))
    days.push(d);
  return days;
}

/**
 * "Choose before the opening" (issue 55, decision 0116): the session type, day, time of day and
 * packages the family wants, who's coming and the policy, given while it waits. At its turn the
 * first free session matching them is held for it and it goes straight to Payment.
 */
export function QueueChoices({
  location,
  saved,
  onSave,
}: {
  location: Location;
  saved: QueueWants | null;
  onSave: (wants: QueueWants, details: BookingDetails) => Promise<boolean>;
}) {
  const details = useWizardSelector((s) => s.booking.details ?? null);
  const [typeId, setTypeId] = useState(saved?.slotTypeId ?? location.slotTypes[0]?.id ?? '');
  const [date, setDate] = useState(saved?.date ?? '');
  const [window, setWindow] = useState<WindowKey>(windowOf(saved));
  const [quantities, setQuantities] = useState<Record<string, number>>(() =>
    Object.fromEntries((saved?.packages ?? []).map((p) => [p.id, p.quantity])),
  );
  const [accepted, setAccepted] = useState(Boolean(saved));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const type = location.slotTypes.find((t) => t.id === typeId);
  const packages = useWizardPackagesQuery({ locationId: location.id, slotTypeId: typeId }, { skip: !typeId });
  const policy = useGetPolicyQuery();
  const offered = packages.data ?? [];
  const chosen = offered.filter((p) => (quantities[p.id] ?? 0) > 0);
  const total = chosen.reduce((n, p) => n + (quantities[p.id] ?? 0), 0);

  const submit = async (given: BookingDetails) => {
    if (chosen.length === 0) return setProblem('Choose at least one package.');
    if (!accepted) return setProblem('Accept the booking policy and the terms and conditions.');
    setProblem(null);
    setBusy(true);
    const wants: QueueWants = {
      slotTypeId: typeId,
      ...(date ? { date } : {}),
      ...WINDOWS[window].range,
      packages: chosen.map((p) => ({ id: p.id, quantity: quantities[p.id]! })),
    };
    const ok = await onSave(wants, given);
    setBusy(false);
    if (!ok) setProblem('We could not save your choices. Please try again.');
  };

  const field = 'flex flex-col gap-1 text-sm font-medium text-ink-900';
  const select = 'min-h-11 rounded-xl border border-cream-300 bg-white px-3 text-base text-ink-900';
  return (
    <section
      aria-labelledby="queue-choices-title"
      className="flex flex-col gap-4 rounded-2xl border border-cream-300 bg-cream-50 p-4"
      data-testid="queue-choices"
    >
      <div>
        <h2 id="queue-choices-title" className="text-lg font-semibold text-ink-900">
          Choose now, pay at your turn
        </h2>
        <p className="text-sm text-ink-700">
          Tell us what you would like. When it is your turn we hold the first free session that matches and take you
          straight to payment. If none is left, you choose from what there is.
        </p>
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-ink-900">Session type</legend>
        {location.slotTypes.map((t) => (
          <label key={t.id} className="flex min-h-11 items-center gap-3 text-ink-900">
            <input
              type="radio"
              name="queue-type"
              className="size-5 accent-festive-700"
              checked={t.id === typeId}
              onChange={() => {
                setTypeId(t.id);
                setQuantities({});
              }}
            />
            {t.name}, {t.durationMinutes} minutes
          </label>
        ))}
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className={field}>
          <label htmlFor="queue-day">Day</label>
          <select id="queue-day" className={select} value={date} onChange={(e) => setDate(e.target.value)}>
            <option value="">Any day</option>
            {seasonDays(location).map((d) => (
              <option key={d} value={d}>
                {formatCalendarDay(d)}
              </option>
            ))}
          </select>
        </div>
        <div className={field}>
          <label htmlFor="queue-window">Time of day</label>
          <select
            id="queue-window"
            className={select}
            value={window}
            onChange={(e) => setWindow(e.target.value as WindowKey)}
          >
            {Object.entries(WINDOWS).map(([key, w]) => (
              <option key={key} value={key}>
                {w.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-ink-900">Packages (up to {MAX_PACKAGES})</legend>
        {packages.isLoading && <div className="h-24 animate-pulse rounded-xl bg-cream-200" aria-hidden="true" />}
        {offered.map((p) => (
          <div key={p.id} className="flex items-center justify-between gap-3">
            <span className="text-ink-900">
              {p.name} <span className="text-ink-700">{formatAud(p.priceCents)}</span>
            </span>
            <QuantityStepper
              name={p.name}
              quantity={quantities[p.id] ?? 0}
              max={Math.min(p.maxQuantity, (quantities[p.id] ?? 0) + MAX_PACKAGES - total)}
              onChange={(n) => setQuantities((q) => ({ ...q, [p.id]: n }))}
            />
          </div>
        ))}
      </fieldset>
      <Suspense fallback={<div className="h-40 animate-pulse rounded-2xl bg-cream-200" aria-hidden="true" />}>
        <WhosComingSection formId={FORM_ID} allowsPets={type?.allowsPets ?? false} current={details} onValid={submit} />
      </Suspense>
      {policy.data && (
        <p className="text-sm text-ink-700">
          {policyLine(policy.data)}{' '}
          <a
            href="/terms_and_conditions"
            target="_blank"
            rel="noopener"
            className="font-semibold text-festive-800 underline"
          >
            Read the full terms and conditions (opens in a new tab)
          </a>
        </p>
      )}
      <label className="flex items-start gap-3">
        <input
          type="checkbox"
          className="mt-0.5 size-5 shrink-0 accent-festive-700"
          checked={accepted}
          onChange={(e) => setAccepted(e.target.checked)}
        />
        <span className="text-ink-900">I have read and accept the booking policy and the terms and conditions.</span>
      </label>
      {problem && (
        <p role="alert" className="font-medium text-festive-800">
          {problem}
        </p>
      )}
      <Button type="submit" form={FORM_ID} className="w-full sm:w-fit" disabled={busy}>
        {busy ? 'Saving…' : 'Save my choices'}
      </Button>
    </section>
  );
}
