import { useState } from 'react';
import { formatSessionTime } from '@kringle/contracts/dates';
import { zoneLabelAt } from '../../../lib/zone-label';
import { Button } from '../../../components/ui/button';
import { AlertIcon, CalendarIcon, CheckIcon, ClockIcon } from '../../../components/ui/icons';
import { useGetSlotQuery } from '../api';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { nextStep } from '../state/booking-slice';
import { useStepBack } from '../shell/use-step-history';
import { useGetPolicyQuery } from '../../../lib/policy-api';
import { policyText } from '../checkout/policy-text';
import { LoadingList, LoadProblem } from './load-states';
import { StepFrame } from './step-frame';

/** Step 5 (Policy): this booking's reschedule and refund dates, spelled out, to be accepted before paying. */
export function TermsStep({ focusOnMount }: { focusOnMount: boolean }) {
  const dispatch = useWizardDispatch();
  const back = useStepBack();
  const location = useWizardSelector((s) => s.booking.location);
  const hold = useWizardSelector((s) => s.booking.reservationData);
  const slot = useGetSlotQuery(
    { locationId: location?.id ?? '', slotId: hold?.slotId ?? '' },
    { skip: !location || !hold },
  );
  const [accepted, setAccepted] = useState(false);
  const timezone = location?.timezone ?? 'Australia/Sydney';
  const rules = useGetPolicyQuery();
  const policy = slot.currentData && rules.data ? policyText(slot.currentData.startAt, timezone, rules.data) : null;

  return (
    <StepFrame
      title="Our booking policy"
      intro="Please read how changes and cancellations work for this booking."
      focusOnMount={focusOnMount}
      actions={
        <>
          <Button variant="ghost" onClick={back}>
            Back
          </Button>
          <Button className="sm:min-w-48" disabled={!accepted || !policy} onClick={() => dispatch(nextStep())}>
            Continue
          </Button>
        </>
      }
    >
      {!policy && !rules.isError && <LoadingList label="Loading your session" rows={2} />}
      {rules.isError && <LoadProblem what="the booking policy" onRetry={() => void rules.refetch()} />}
      {policy && slot.currentData && (
        <div
          className="flex flex-col gap-3 rounded-2xl border border-cream-300 bg-cream-50 p-4 sm:p-5"
          data-testid="policy-dates"
        >
          <p className="text-ink-700">
            Your session:{' '}
            <strong className="text-ink-900">{formatSessionTime(slot.currentData.startAt, timezone)}</strong> at{' '}
            {location?.name}. Times are {zoneLabelAt(slot.currentData.startAt, timezone)}.
          </p>
          <ul className="flex flex-col gap-3">
            <li className="flex gap-3">
              <CalendarIcon
                aria-hidden="true"
                className={'mt-0.5 size-6 shrink-0 ' + (policy.canReschedule ? 'text-pine-700' : 'text-gold-700')}
              />
              <span className="text-ink-900">{policy.reschedule}</span>
            </li>
            <li className="flex gap-3">
              {/* A tick means yes: no refund gets the alert mark, never a ✓ (issue 37 item 10). */}
              {policy.canRefund ? (
                <CheckIcon aria-hidden="true" data-icon="check" className="mt-0.5 size-6 shrink-0 text-pine-700" />
              ) : (
                <AlertIcon aria-hidden="true" data-icon="alert" className="mt-0.5 size-6 shrink-0 text-gold-700" />
              )}
              <span className="text-ink-900">{policy.refund}</span>
            </li>
            <li className="flex gap-3">
              <ClockIcon aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-gold-700" />
              <span className="text-ink-900">
                Please arrive 10 minutes early. Sessions run to time, so a late start may mean a shorter visit.
              </span>
            </li>
          </ul>
          <p className="text-sm text-ink-600">
            Refunds go back to your card and usually arrive within 5 to 10 business days.{' '}
            <a
              href="/terms_and_conditions"
              target="_blank"
              rel="noopener"
              className="font-medium text-festive-700 underline underline-offset-4"
            >
              Read the full terms and conditions (opens in a new tab)
            </a>
          </p>
        </div>
      )}
      <label
        className={
          'flex min-h-11 cursor-pointer items-start gap-3 rounded-2xl border-2 border-cream-300 ' +
          'bg-cream-50 p-4 has-checked:border-pine-700 has-checked:bg-pine-50'
        }
      >
        <input
          type="checkbox"
          checked={accepted}
          onChange={(e) => setAccepted(e.target.checked)}
          className="mt-0.5 size-6 shrink-0 accent-pine-700"
        />
        <span className="text-ink-900">I have read and accept the booking policy and the terms and conditions.</span>
      </label>
    </StepFrame>
  );
}
