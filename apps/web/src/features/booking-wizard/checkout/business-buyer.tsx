import { businessBuyerSchema, formatAbn, type BusinessBuyer } from '@kringle/contracts/abn';
import { FormField } from '../../../components/ui/form-field';

/** What is typed in the "booking for a business or school" fields, before it is checked. */
export interface BusinessDraft {
  on: boolean;
  name: string;
  abn: string;
}

export type BusinessErrors = { name?: string; abn?: string };

export const draftOf = (business: BusinessBuyer | null | undefined): BusinessDraft =>
  business ? { on: true, name: business.name, abn: formatAbn(business.abn) } : { on: false, name: '', abn: '' };

/**
 * The draft checked as the API checks it (the contract's schema, the ABN's checksum included): the business to send,
 * none when the box is not ticked, or each field's first problem.
 */
export function checkBusiness(
  draft: BusinessDraft,
): { ok: true; business: BusinessBuyer | null } | { ok: false; errors: BusinessErrors } {
  if (!draft.on) return { ok: true, business: null };
  const parsed = businessBuyerSchema.safeParse({ name: draft.name, abn: draft.abn });
  if (parsed.success) return { ok: true, business: parsed.data };
  const errors: BusinessErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof BusinessErrors;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

/**
 * Overview's "booking for a business or school" (issue 51, ATO): its name and ABN go on the tax invoice. Locked once
 * the order is placed: the order's invoice already names them.
 */
export function BusinessBuyerFields({
  draft,
  errors,
  locked,
  onChange,
}: {
  draft: BusinessDraft;
  errors: BusinessErrors;
  locked: boolean;
  onChange: (draft: BusinessDraft) => void;
}) {
  return (
    <section
      aria-labelledby="business-buyer"
      className="flex flex-col gap-3 rounded-2xl border border-cream-300 bg-cream-50 p-4 sm:p-5"
    >
      <h3 id="business-buyer" className="text-xl font-semibold text-ink-900">
        Tax invoice
      </h3>
      <label className="flex min-h-11 items-center gap-3 text-ink-900">
        <input
          type="checkbox"
          className="size-5 accent-festive-700"
          checked={draft.on}
          disabled={locked}
          onChange={(e) => onChange({ ...draft, on: e.target.checked })}
        />
        This is a booking for a business or school
      </label>
      {draft.on && (
        <div className="flex flex-col gap-3 sm:max-w-md">
          <FormField
            label="Business or school name"
            autoComplete="organization"
            value={draft.name}
            error={errors.name}
            readOnly={locked}
            onChange={(e) => onChange({ ...draft, name: e.target.value })}
          />
          <FormField
            label="ABN"
            inputMode="numeric"
            autoComplete="off"
            hint="11 digits, as on the ABN Lookup."
            value={draft.abn}
            error={errors.abn}
            readOnly={locked}
            onChange={(e) => onChange({ ...draft, abn: e.target.value })}
          />
        </div>
      )}
      {draft.on && (
        <p className="text-sm text-ink-600">
          {locked
            ? 'Your order is placed: its tax invoice names the business or school above.'
            : 'Your tax invoice will name the business or school and its ABN.'}
        </p>
      )}
    </section>
  );
}
