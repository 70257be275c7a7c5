/**
 * A field's refusal under it, in an alert region that is always in the page, so what appears in it is
 * announced; `id` is what the field's aria-describedby names.
 */
export function InlineAlert({ id, error }: { id: string; error: string | null }) {
  return (
    <div role="alert">
      {error && (
        <p id={id} className="mt-2 flex items-start gap-1.5 text-sm font-medium text-festive-800">
          <span aria-hidden="true">⚠</span>
          <span>{error}</span>
        </p>
      )}
    </div>
  );
}
