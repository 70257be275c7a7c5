import { useEffect, useRef } from 'react';
import type { SaleProblem } from './use-walk-in-sale';

/** Why a sale did not go through, under the Sell button. */
export function WalkInProblem({ problem }: { problem: SaleProblem }) {
  const box = useRef<HTMLDivElement>(null);
  // On a phone this is below the fold unless brought into view.
  useEffect(() => {
    box.current?.scrollIntoView?.({ block: 'center' });
  }, [problem]);
  return (
    <div
      ref={box}
      role="alert"
      className="scroll-mb-4 rounded-lg bg-festive-50 px-4 py-3 text-festive-800 lg:col-span-2"
    >
      <p className="font-semibold">{problem.message}</p>
      {problem.details.length > 1 && (
        <ul className="list-disc pl-5">
          {problem.details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
