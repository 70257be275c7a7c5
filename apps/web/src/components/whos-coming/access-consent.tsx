import { ACCESS_CONSENT } from '@kringle/contracts/consent';
import { FieldError } from './field-error';

interface AccessConsentProps {
  /** The form's id: the checkbox is `${formId}-consent`, so the form can focus it when the agreement is missing. */
  formId: string;
  checked: boolean;
  problem?: string;
  onChange: (checked: boolean) => void;
}

/** The parent's agreement to keep the access needs and note, with a link to how that information is kept. */
export function AccessConsent({ formId, checked, problem, onChange }: AccessConsentProps) {
  return (
    <div className="flex flex-col gap-1 rounded-xl bg-cream-100 p-3">
      <label className="flex items-start gap-3 text-ink-900">
        <input
          id={`${formId}-consent`}
          type="checkbox"
          className="mt-0.5 size-5 shrink-0 accent-festive-700"
          checked={checked}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${formId}-consent-err`}
          onChange={(e) => onChange(e.target.checked)}
        />
        <span>{ACCESS_CONSENT.text}</span>
      </label>
      <a
        href="/privacy"
        target="_blank"
        rel="noopener"
        className="ml-8 self-start text-sm font-semibold text-festive-800 underline"
      >
        How we look after your information
      </a>
      <FieldError id={`${formId}-consent-err`} message={problem} />
    </div>
  );
}
