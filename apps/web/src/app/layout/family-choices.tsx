import { clsx } from 'clsx';
import { useState } from 'react';
import type { FamilyConsent } from '@kringle/contracts/family-consents';
import { LoadProblem } from '../../components/ui/load-problem';
import { errorMessage } from '../../features/auth/api-error';
import { useGetFamilyConsentsQuery, useSetFamilyConsentMutation } from '../../features/privacy/api';

const until = (iso: string) =>
  new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'long', year: 'numeric' });

/** One choice: a switch that turns it on (with the version of the words shown) or off, in one tap. */
function ChoiceSwitch({ consent }: { consent: FamilyConsent }) {
  const [setConsent, { isLoading }] = useSetFamilyConsentMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const id = `choice-${consent.kind}`;

  const toggle = async () => {
    setProblem(null);
    const given = !consent.given;
    const result = await setConsent({
      kind: consent.kind,
      given,
      ...(given ? { wordingVersion: consent.wordingVersion } : {}),
    });
    if (result.error) setProblem(errorMessage(result.error, 'We could not save your choice. Please try again.'));
  };

  return (
    <li className="flex flex-col gap-1 rounded-xl border border-cream-300 bg-cream-50 p-3">
      <div className="flex items-start justify-between gap-3">
        <span id={`${id}-label`} className="font-semibold text-ink-900">
          {consent.label}
        </span>
        <button
          type="button"
          role="switch"
          aria-checked={consent.given}
          aria-labelledby={`${id}-label`}
          aria-describedby={`${id}-text`}
          disabled={isLoading}
          onClick={() => void toggle()}
          // A 44 px tall target around the 28 px track (WCAG 2.5.8 asks 24).
          className="-my-2 flex min-h-11 shrink-0 items-center disabled:opacity-60"
        >
          <span
            aria-hidden="true"
            className={clsx(
              'relative inline-block h-7 w-12 rounded-full transition-colors',
              consent.given ? 'bg-pine-700' : 'bg-ink-600',
            )}
          >
            <span
              className={clsx(
                'absolute top-1 left-0 size-5 rounded-full bg-cream-50 shadow transition-transform',
                consent.given ? 'translate-x-6' : 'translate-x-1',
              )}
            />
          </span>
        </button>
      </div>
      <p id={`${id}-text`} className="text-sm text-ink-700">
        {consent.text}
      </p>
      <p className="text-sm font-medium text-ink-900">
        {consent.given ? (consent.expiresAt ? `On until ${until(consent.expiresAt)}.` : 'On.') : 'Off.'}
      </p>
      {problem && (
        <p role="alert" className="text-sm font-medium text-festive-800">
          {problem}
        </p>
      )}
    </li>
  );
}

/**
 * "Your choices" in the account's "Your data" (issue 51, decision 0097): news by e-mail and showing the family's
 * photos, each apart from any booking, off until the parent turns it on, off again in one tap (PUT /user/consents).
 */
export function FamilyChoices() {
  const { data, isError, refetch } = useGetFamilyConsentsQuery();
  return (
    <section aria-labelledby="family-choices-title" className="flex flex-col gap-2">
      <h3 id="family-choices-title" className="font-display text-lg text-ink-900">
        Your choices
      </h3>
      {isError && (
        <LoadProblem className="text-sm" onRetry={() => void refetch()}>
          Your choices could not be loaded.
        </LoadProblem>
      )}
      {!data && !isError && <p className="text-sm text-ink-700">Loading…</p>}
      {data && (
        <ul className="flex flex-col gap-2">
          {data.items.map((consent) => (
            <ChoiceSwitch key={consent.kind} consent={consent} />
          ))}
        </ul>
      )}
    </section>
  );
}
