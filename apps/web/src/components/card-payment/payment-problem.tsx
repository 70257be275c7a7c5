import type { Ref } from 'react';

/** Why a card payment did not go through, said where the Pay button is (focused by the caller to be read out). */
export function PaymentProblem({
  problem,
  ref,
  testId,
}: {
  problem: string;
  ref: Ref<HTMLDivElement>;
  testId: string;
}) {
  return (
    <div
      ref={ref}
      role="alert"
      tabIndex={-1}
      data-testid={testId}
      className="rounded-2xl border border-festive-100 bg-festive-50 p-4 text-festive-900"
    >
      <p className="font-semibold">Payment not completed</p>
      <p>{problem}</p>
      <p className="mt-1 text-sm text-ink-700">
        You have not been charged. Check the details or use another card, then press Pay again.
      </p>
    </div>
  );
}
