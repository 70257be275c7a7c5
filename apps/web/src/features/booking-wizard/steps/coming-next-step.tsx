import { formatSessionTime } from '@kringle/contracts/dates';
import { Button } from '../../../components/ui/button';
import { GiftIcon } from '../../../components/ui/icons';
import { useGetSlotQuery } from '../api';
import { useWizardDispatch, useWizardSelector } from '../booking-hooks';
import { nextStep, prevStep } from '../booking-slice';
import { LAST_STEP, WIZARD_STEPS } from '../wizard-steps';
import { StepFrame } from './step-frame';

const TITLES: Record<string, string> = {
  package: 'Choose your photo package',
  terms: 'Our booking policy',
  overview: 'Check your booking',
  payment: 'Payment',
};

/**
 * The steps after Session (Package to Payment) until they are built: what is chosen so far,
 * and the way back and forward. The countdown above keeps running.
 */
export function ComingNextStep({ step, focusOnMount }: { step: number; focusOnMount: boolean }) {
  const dispatch = useWizardDispatch();
  const { location, slotType, reservationData } = useWizardSelector((s) => s.booking);
  const slot = useGetSlotQuery({ locationId: location?.id ?? '', slotId: reservationData?.slotId ?? '' }, { skip: !location || !reservationData });
  const key = WIZARD_STEPS[step]?.key ?? 'package';

  return (
    <StepFrame
      title={TITLES[key] ?? 'Coming next'}
      focusOnMount={focusOnMount}
      actions={
        <>
          <Button variant="ghost" onClick={() => dispatch(prevStep())}>
            Back
          </Button>
          {step < LAST_STEP && (
            <Button variant="secondary" className="sm:min-w-40" onClick={() => dispatch(nextStep())}>
              Continue
            </Button>
          )}
        </>
      }
    >
      <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-cream-300 bg-cream-50 px-5 py-8 text-center">
        <span aria-hidden="true" className="flex size-12 items-center justify-center rounded-full bg-cream-200 text-festive-700">
          <GiftIcon />
        </span>
        <p className="max-w-md text-ink-700">This part of booking is coming next. Your session stays held for you while the timer runs.</p>
      </div>
      <dl className="grid gap-x-6 gap-y-3 rounded-2xl border border-cream-300 bg-cream-50 p-4 sm:grid-cols-3">
        <div>
          <dt className="text-sm text-ink-600">Location</dt>
          <dd className="font-semibold text-ink-900">{location?.name}</dd>
        </div>
        <div>
          <dt className="text-sm text-ink-600">Visit</dt>
          <dd className="font-semibold text-ink-900">{slotType[0]?.name}</dd>
        </div>
        <div>
          <dt className="text-sm text-ink-600">Session</dt>
          <dd className="font-semibold text-ink-900">{slot.data && location ? formatSessionTime(slot.data.startAt, location.timezone) : '…'}</dd>
        </div>
      </dl>
    </StepFrame>
  );
}
