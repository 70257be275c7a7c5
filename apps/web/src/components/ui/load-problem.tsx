import { clsx } from 'clsx';
import type { ReactNode } from 'react';

/** What could not be loaded, said at once, with a button to try again. */
export function LoadProblem({
  children,
  onRetry,
  className,
}: {
  children: ReactNode;
  onRetry: () => void;
  className?: string;
}) {
  return (
    <p role="alert" className={clsx('text-festive-800', className)}>
      {children}{' '}
      <button type="button" className="min-h-11 font-semibold underline" onClick={onRetry}>
        Try again
      </button>
    </p>
  );
}
