import { clsx } from 'clsx';
import { passwordProblem, passwordStrength } from '@kringle/contracts/accounts';
import type { PasswordStrengthProps } from './password-strength-meter';

const LABELS = ['Too weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;
const BAR_COLOURS = ['bg-festive-700', 'bg-gold-500', 'bg-gold-500', 'bg-pine-600', 'bg-pine-700'] as const;

/**
 * Live password strength from the shared rules (the same ones the API enforces), so the
 * meter never calls a password "good" that the server would refuse. Says why in words;
 * the bars are decoration. Loaded by password-strength-meter.tsx once there is a password.
 */
export function PasswordStrength({ password, email, hideProblem }: PasswordStrengthProps) {
  const score = passwordStrength(password, email);
  const problem = passwordProblem(password, email);
  return (
    <div className="flex flex-col gap-1.5" data-testid="password-strength" data-score={score}>
      <div className="flex gap-1" aria-hidden="true">
        {[1, 2, 3, 4].map((bar) => (
          <span
            key={bar}
            className={clsx(
              'h-1.5 flex-1 rounded-full',
              bar <= Math.max(score, 1) ? BAR_COLOURS[score] : 'bg-cream-300',
            )}
          />
        ))}
      </div>
      <p className="text-sm text-ink-700">
        Password strength:{' '}
        <strong className={score === 0 ? 'text-festive-800' : score >= 3 ? 'text-pine-700' : 'text-gold-700'}>
          {LABELS[score]}
        </strong>
        {problem ? (
          hideProblem ? null : (
            <span>. {problem}.</span>
          )
        ) : score < 3 ? (
          <span>. Longer, with a mix of letters, numbers and symbols, is stronger.</span>
        ) : null}
      </p>
    </div>
  );
}
