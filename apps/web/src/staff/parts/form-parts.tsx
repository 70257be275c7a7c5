import { useId } from 'react';

/** The walk-in form's look, shared by its parts. */
export const control =
  'min-h-11 rounded-lg border border-cream-300 bg-cream-50 px-3 text-base font-normal aria-invalid:border-festive-700';
// min-w-0 and w-full: an input's own width (about 20 characters) pushed two side by side past a 390 px screen.
export const input = `${control} w-full min-w-0`;
export const label = 'flex min-w-0 flex-col gap-1 font-semibold';

/** A message beside its field, as the customer app shows it. */
export function ErrorText({ id, children }: { id: string; children: string }) {
  return (
    <p id={id} className="flex items-start gap-1.5 text-sm font-medium text-festive-800">
      <span aria-hidden="true">⚠</span>
      <span>{children}</span>
    </p>
  );
}

/** A labelled input with its message outside the label, so the message is its description, not part of its name. */
export function TextField({
  name,
  label: text,
  type = 'text',
  value,
  onChange,
  error,
}: {
  name: string;
  label: string;
  type?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const id = useId();
  return (
    <div className={label}>
      <label htmlFor={id}>{text}</label>
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={type === 'email' ? 254 : 60}
        autoComplete="off"
        className={input}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && <ErrorText id={`${id}-error`}>{error}</ErrorText>}
    </div>
  );
}
