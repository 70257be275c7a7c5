import { useId, useState, type ReactNode } from 'react';
import { input, label } from '../parts/form-parts';

/** A labelled input of the season form; `width` keeps short values (times, prices) short. */
export function Field({
  label: text,
  value,
  onChange,
  type = 'text',
  maxLength = 120,
  step,
  min,
  className,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  maxLength?: number;
  step?: string;
  min?: string;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={`${label} ${className ?? ''}`}>
      <label htmlFor={id} className="text-sm">
        {text}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        step={step}
        min={min}
        maxLength={type === 'text' ? maxLength : undefined}
        onChange={(e) => onChange(e.target.value)}
        className={input}
      />
    </div>
  );
}

export function TextArea({
  label: text,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className={label}>
      <label htmlFor={id} className="text-sm">
        {text}
      </label>
      <textarea
        id={id}
        value={value}
        maxLength={500}
        rows={2}
        onChange={(e) => onChange(e.target.value)}
        className={`${input} py-2`}
      />
    </div>
  );
}

/** A titled part of the form. */
export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3 rounded-xl bg-cream-50 p-4 ring-1 ring-cream-300">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="font-display text-xl font-semibold text-ink-900">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A small button that removes a row, named for what it removes. */
export function RemoveButton({ what, onClick }: { what: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={`Remove ${what}`}
      className={
        'min-h-11 rounded-lg px-3 font-semibold text-festive-800 underline underline-offset-4 ' + 'hover:bg-cream-100'
      }
    >
      Remove
    </button>
  );
}

export function AddButton({ children, onClick }: { children: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className={
        'min-h-11 self-start rounded-lg border border-pine-700 px-4 font-semibold text-pine-800 ' + 'hover:bg-cream-100'
      }
    >
      {children}
    </button>
  );
}

/** "10:00-17:30" as its two times, and back. */
export const splitWindow = (w: string): [string, string] => {
  const [from = '', to = ''] = w.split('-');
  return [from, to];
};
export const joinWindow = (from: string, to: string) => `${from}-${to}`;

/** Cents in the file, dollars in the form. */
export const dollarsOf = (cents: number) => (cents / 100).toFixed(2);
export const centsOf = (dollars: string) => Math.round(Number(dollars) * 100);

/** A price typed in dollars: what is typed stays as typed ("39.9"), the file gets cents. */
export function PriceField({
  label: text,
  cents,
  onChange,
}: {
  label: string;
  cents: number;
  onChange: (cents: number) => void;
}) {
  const [typed, setTyped] = useState(() => dollarsOf(cents));
  return (
    <Field
      label={text}
      type="number"
      step="0.01"
      min="0.01"
      value={typed}
      onChange={(v) => {
        setTyped(v);
        onChange(centsOf(v));
      }}
    />
  );
}

/**
 * The slug of an item added in this edit (a saved item keeps its slug: a new one would be another
 * item). Committed when the field is left, so the list keeps its keys while it is typed.
 */
export function SlugField({ slug, onChange }: { slug: string; onChange: (slug: string) => void }) {
  const [typed, setTyped] = useState(slug);
  const id = useId();
  return (
    <div className={label}>
      <label htmlFor={id} className="text-sm">
        Slug (lower-case words joined by hyphens)
      </label>
      <input
        id={id}
        value={typed}
        maxLength={60}
        onChange={(e) => setTyped(e.target.value)}
        onBlur={() => onChange(typed.trim())}
        className={input}
      />
    </div>
  );
}

/** A slug not yet in the list: `new-package`, then `new-package-2`, … */
export function freshSlug(base: string, taken: { slug: string }[]): string {
  const slugs = new Set(taken.map((t) => t.slug));
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!slugs.has(slug)) return slug;
  }
}
