import { hours, times } from '@kringle/contracts/policy';
import type { Policy } from '@kringle/contracts/policy-schema';

/** Help panel text: short answers to what families ask most. Numbers come from the policy in force. */
export function helpFaq(policy: Policy | undefined): { question: string; answer: string }[] {
  return [
    {
      question: 'How do I book a session?',
      answer:
        'Choose Book a session in My Bookings (or Book now in View Packages), pick a location, the type of session ' +
        'and a time, then choose your package and pay by card.',
    },
    {
      question: 'How long is my session held?',
      answer: policy
        ? `Once you pick a time we hold it for ${policy.holdMinutes} minutes while you finish.` +
          (policy.holdRefreshes > 0
            ? ` If you need more time, you can extend the hold ${times(policy.holdRefreshes)}.`
            : '')
        : 'Once you pick a time we hold it for a few minutes while you finish.',
    },
    {
      question: 'Can I bring the whole family, or our dog?',
      answer: 'Yes. Choose a package that covers everyone in the photo. Pets are welcome at Pet Night sessions.',
    },
    {
      question: 'Is there a quieter session?',
      answer: 'Sensory-friendly sessions have softer lighting, no music and fewer people waiting.',
    },
  ];
}

/** The booking policy in plain words, from the numbers the API says are in force. */
export function helpPolicy(policy: Policy): string[] {
  return [
    policy.rescheduleLimit > 0
      ? `Reschedule up to ${hours(policy.rescheduleCutoffHours)} before your session, at most ` +
        `${times(policy.rescheduleLimit)}, at the same location.`
      : 'Bookings cannot be moved to another session.',
    `Cancel up to ${hours(policy.refundCutoffHours)} before for a full refund. Later cancellations are not refunded.`,
    `You can have up to ${policy.maxUpcomingBookings} upcoming ` +
      `${policy.maxUpcomingBookings === 1 ? 'booking' : 'bookings'} at a time.`,
    'Prices are in Australian dollars and include GST.',
  ];
}

export const HELP_CONTACT = {
  email: 'hello@kringle.test',
  hours: 'Monday to Saturday, 9 am to 5 pm (AEDT)',
};
