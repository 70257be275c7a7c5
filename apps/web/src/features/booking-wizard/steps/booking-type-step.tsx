import { Button } from '../../../components/ui/button';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { nextStep, toggleSlotType } from '../state/booking-slice';
import { useStepBack } from '../shell/use-step-history';
import { ChoiceCard, StepFrame } from './step-frame';

/** Step 2: what kind of visit. Choosing the chosen type again clears it (spec §3). */
export function BookingTypeStep({ focusOnMount }: { focusOnMount: boolean }) {
  const dispatch = useWizardDispatch();
  const back = useStepBack();
  const location = useWizardSelector((s) => s.booking.location);
  const chosen = useWizardSelector((s) => s.booking.slotType[0]);
  const types = location?.slotTypes ?? [];

  return (
    <StepFrame
      title="What kind of visit?"
      intro={location ? `Sessions on offer at ${location.name}.` : undefined}
      focusOnMount={focusOnMount}
      actions={
        <>
          <Button variant="ghost" onClick={back}>
            Back
          </Button>
          <Button className="sm:min-w-40" disabled={!chosen} onClick={() => dispatch(nextStep())}>
            Continue
          </Button>
        </>
      }
    >
      <ul className="flex flex-col gap-3">
        {types.map((type) => (
          <li key={type.id}>
            <ChoiceCard chosen={chosen?.id === type.id} onClick={() => dispatch(toggleSlotType(type))}>
              <span className="pr-8 text-lg font-semibold text-ink-900">{type.name}</span>
              <span className="leading-relaxed text-ink-700">{type.description}</span>
              {/* The demo descriptions already say how long; a season file's may not. */}
              {!/\bminutes?\b/i.test(type.description) && (
                <span className="text-sm font-medium text-pine-700">{type.durationMinutes} minutes</span>
              )}
            </ChoiceCard>
          </li>
        ))}
      </ul>
    </StepFrame>
  );
}
