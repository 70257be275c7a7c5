import { formatClockTime } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import type { StaffCatalogue } from '@kringle/contracts/staff';
import { useId, useRef } from 'react';
import { Button } from '../../components/ui/button';
import { TextField } from '../parts/form-parts';
import { useWalkInSale } from './use-walk-in-sale';
import { WalkInProblem } from './walk-in-problem';
import { WalkInPaidWith } from './walk-in-paid-with';
import { WalkInProducts } from './walk-in-products';
import { WalkInSessionField } from './walk-in-session-field';
import { WalkInSold } from './walk-in-sold';
import { WhosComingFields } from './whos-coming-fields';

type Location = StaffCatalogue['locations'][number];

/** Sell a free session later today to a family at the set, paid in store. */
export function WalkInPage({
  location,
  catalogue,
  initialSlotId,
  today,
}: {
  location: Location;
  catalogue: StaffCatalogue;
  initialSlotId: string | null;
  today: string;
}) {
  const form = useRef<HTMLFormElement>(null);
  const {
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
  } = useWalkInSale(location.id, catalogue, initialSlotId, today, form);
  const id = useId();

  return (
    <section aria-labelledby="walk-in-title" className="space-y-4">
      <h1 id="walk-in-title" className="text-3xl font-semibold">
        Walk-in at {location.name}
      </h1>
      {sold && (
        <WalkInSold
          sold={sold}
          timezone={location.timezone}
          onReceiptFailed={() =>
            setProblem({ message: 'The tax invoice could not be downloaded. Please try again.', details: [] })
          }
        />
      )}
      <form
        ref={form}
        noValidate
        onSubmit={(e) => void submit(e)}
        className="grid gap-6 rounded-2xl bg-cream-50 p-5 ring-1 ring-cream-300 lg:grid-cols-2"
      >
        <fieldset className="min-w-0 space-y-3">
          <legend className="mb-2 text-xl font-semibold">Session and family</legend>
          <WalkInSessionField
            id={id}
            free={free}
            slot={slot}
            gone={gone}
            timezone={location.timezone}
            onChoose={setSlotId}
          />
          <div className="grid grid-cols-2 gap-3">
            <TextField
              name="firstName"
              label="First name"
              value={family.firstName}
              onChange={(firstName) => change({ firstName })}
              error={errors.firstName}
            />
            <TextField
              name="lastName"
              label="Last name"
              value={family.lastName}
              onChange={(lastName) => change({ lastName })}
              error={errors.lastName}
            />
          </div>
          <TextField
            name="email"
            type="email"
            label="E-mail for the receipt (optional)"
            value={family.email}
            onChange={(email) => change({ email })}
            error={errors.email}
          />
        </fieldset>
        <WhosComingFields details={family.details} onChange={setDetails} allowsPets={allowsPets} errors={errors} />
        <WalkInProducts
          id={id}
          products={[...packages, ...catalogue.addOns]}
          quantities={family.quantities}
          error={errors.packages}
          onChange={(quantities) => change({ quantities })}
        />
        <WalkInPaidWith
          id={id}
          value={family.paidWith}
          error={errors.paidWith}
          onChange={(paidWith) => change({ paidWith })}
        />
        <div className="flex flex-wrap items-center gap-4 lg:col-span-2">
          <span className="text-xl font-semibold">Total {formatAud(total)} (includes GST)</span>
          <Button
            type="submit"
            variant="confirm"
            disabled={busy || !slot}
            aria-describedby={gone ? `${id}-gone-here` : undefined}
          >
            {busy ? 'Selling…' : 'Sell and mark paid in store'}
          </Button>
          {/* Said again beside the button: on a phone the session field is far above it. */}
          {gone && (
            <span id={`${id}-gone-here`} className="font-semibold text-festive-800">
              Choose a session first: {formatClockTime(gone.startAt, location.timezone)} is no longer free.
            </span>
          )}
        </div>
        {problem && <WalkInProblem problem={problem} />}
      </form>
    </section>
  );
}
