import { WIZARD_STEPS } from './wizard-steps';

// Placeholder until the booking-wizard issue builds the steps; shows the seven steps to come.
export function CreateBookingPage() {
  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:px-8 sm:py-12">
      <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">Create Booking</h1>
      <p className="text-ink-700">Booking takes seven short steps. The booking form will appear here.</p>
      <ol className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {WIZARD_STEPS.map((step, index) => (
          <li key={step.key} className="flex min-h-11 items-center gap-2 rounded-xl border border-cream-300 bg-cream-50 px-3 text-ink-700">
            <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-cream-200 text-sm font-semibold text-festive-700">{index + 1}</span>
            {step.label}
          </li>
        ))}
      </ol>
    </section>
  );
}
