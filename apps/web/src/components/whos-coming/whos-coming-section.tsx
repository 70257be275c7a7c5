import { EMPTY_DETAILS, type BookingDetails } from '@kringle/contracts/booking-details';
import { usePreviousDetailsQuery } from './api';
import { DetailsForm, fitDetails } from './details-form';

export interface WhosComingSectionProps {
  formId: string;
  allowsPets: boolean;
  /** What this wizard already has (back from Payment); else the family's last booking's details. */
  current: BookingDetails | null;
  onValid: (details: BookingDetails) => void | Promise<void>;
  serverErrors?: { path: string; message: string }[];
  onMounted?: () => void;
}

/** The Overview step's "Who's coming" (no eighth step: the spec fixes seven). Loaded with the step. */
export function WhosComingSection({
  formId,
  allowsPets,
  current,
  onValid,
  serverErrors,
  onMounted,
}: WhosComingSectionProps) {
  const previous = usePreviousDetailsQuery(undefined, { skip: current !== null });
  if (current === null && previous.isLoading)
    return <div className="h-40 animate-pulse rounded-2xl bg-cream-200" aria-hidden="true" />;
  const start = current ?? previous.data ?? EMPTY_DETAILS;
  return (
    <section aria-labelledby={`${formId}-title`} className="rounded-2xl border border-cream-300 bg-cream-50 p-4 sm:p-5">
      <h3 id={`${formId}-title`} className="text-xl font-semibold text-ink-900">
        Who's coming
      </h3>
      <p className="mb-4 text-sm text-ink-700">
        {current === null && previous.data ? 'From your last booking: check it is still right. ' : ''}So Santa can greet
        every child by name. Only you and Santa's team see this.{' '}
        <a href="/privacy" target="_blank" rel="noopener" className="font-semibold text-festive-800 underline">
          Privacy policy
        </a>
      </p>
      <DetailsForm
        id={formId}
        defaultValues={fitDetails(start, allowsPets)}
        allowsPets={allowsPets}
        onValid={onValid}
        serverErrors={serverErrors}
        onMounted={onMounted}
      />
    </section>
  );
}

export default WhosComingSection;
