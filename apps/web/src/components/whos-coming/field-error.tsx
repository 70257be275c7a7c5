/** A field's inline error, the target of its `aria-describedby`; nothing when there is no message. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="text-sm font-semibold text-festive-800">
      {message}
    </p>
  ) : null;
}
