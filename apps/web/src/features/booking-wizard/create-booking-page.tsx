import { useState } from 'react';
import { useWizardSelector } from './booking-hooks';
import { selectActiveStep } from './booking-slice';
import { CountdownBar } from './countdown-bar';
import { BookingTypeStep } from './steps/booking-type-step';
import { ComingNextStep } from './steps/coming-next-step';
import { LocationStep } from './steps/location-step';
import { SessionTimeStep } from './steps/session-time-step';
import { WizardStepper } from './wizard-stepper';
import { WIZARD_STEPS } from './wizard-steps';

/**
 * /create-booking: the seven-step wizard (spec §2). The step shown is derived from the
 * booking state (selectActiveStep), never synced into it by an effect.
 */
export function CreateBookingPage() {
  const step = useWizardSelector(selectActiveStep);
  const hasHold = useWizardSelector((s) => s.booking.reservationData !== null);
  // Move focus to a step's heading once the step has changed, not on the page's first render.
  const [shownStep, setShownStep] = useState(step);
  const [moved, setMoved] = useState(false);
  if (shownStep !== step) {
    setShownStep(step);
    setMoved(true);
  }
  const focusOnMount = moved;
  const key = WIZARD_STEPS[step]?.key;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-5 px-4 pb-10 pt-4 sm:px-8 sm:pt-8">
      <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">Create Booking</h1>
      <WizardStepper current={step} />
      {hasHold && <CountdownBar />}
      <div key={key}>
        {key === 'location' && <LocationStep focusOnMount={focusOnMount} />}
        {key === 'bookingType' && <BookingTypeStep focusOnMount={focusOnMount} />}
        {key === 'sessionTime' && <SessionTimeStep focusOnMount={focusOnMount} />}
        {key !== 'location' && key !== 'bookingType' && key !== 'sessionTime' && <ComingNextStep step={step} focusOnMount={focusOnMount} />}
      </div>
    </div>
  );
}
