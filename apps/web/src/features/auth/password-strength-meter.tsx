import { lazy, Suspense } from 'react';

export interface PasswordStrengthProps {
  password: string;
  email?: string;
  /** When the field already shows the error. */
  hideProblem?: boolean;
}

const loadStrength = () => import('./password-strength');
const PasswordStrength = lazy(() => loadStrength().then((m) => ({ default: m.PasswordStrength })));

/** Starts loading the strength rules (the shared contracts, and zod with them); forms call it on first use. */
export const preloadPasswordStrength = () => loadStrength().catch(() => undefined);

const hint = (
  <p className="text-sm text-ink-600">
    Use 8 or more characters. A short phrase is easy to remember and hard to guess.
  </p>
);

/**
 * The hint under a new password, then its live strength. The rules load with the first
 * character typed (or earlier, see preloadPasswordStrength), so the page paints without them.
 */
export function PasswordStrengthMeter(props: PasswordStrengthProps) {
  if (!props.password) return hint;
  return (
    <Suspense fallback={hint}>
      <PasswordStrength {...props} />
    </Suspense>
  );
}
