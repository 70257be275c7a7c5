import { clsx } from 'clsx';
import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** Shown under the label, linked with aria-describedby. */
  hint?: ReactNode;
  error?: string;
  /** Extra content under the input (e.g. the strength meter), also described-by. */
  below?: ReactNode;
  optional?: boolean;
  /** A control inside the input's right edge (e.g. show/hide password). */
  trailing?: ReactNode;
}

/**
 * One labelled input with its hint and inline error. The error is announced with the field
 * (aria-describedby + aria-invalid), so a screen reader hears why a field was refused.
 */
export const FormField = forwardRef<HTMLInputElement, FormFieldProps>(function FormField(
  { label, hint, error, below, optional, trailing, className, id: givenId, ...input },
  ref,
) {
  const autoId = useId();
  const id = givenId ?? autoId;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const belowId = below ? `${id}-below` : undefined;
  const describedBy = [hintId, belowId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={clsx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-semibold text-ink-900">
        {label}
        {/* A real space: the margin alone left the accessible name "Mobile number(optional)". */}
        {optional && (
          <>
            {' '}
            <span className="font-normal text-ink-600">(optional)</span>
          </>
        )}
      </label>
      {hint && (
        <p id={hintId} className="text-sm text-ink-600">
          {hint}
        </p>
      )}
      <div className="relative">
        <input
          ref={ref}
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={clsx(
            'min-h-11 w-full min-w-0 rounded-xl border bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-xs ' +
              'transition-colors',
            'placeholder:text-ink-600/70 focus:border-festive-700 focus:outline-2 focus:outline-offset-1 ' +
              'focus:outline-festive-700',
            // 3:1 against white at least (WCAG 1.4.11), so the box is visible without its label.
            error ? 'border-festive-700' : 'border-ink-600/70',
            trailing && 'pr-20',
          )}
          {...input}
        />
        {trailing && <div className="absolute inset-y-0 right-0 flex items-center pr-1">{trailing}</div>}
      </div>
      {below && <div id={belowId}>{below}</div>}
      {error && (
        <p id={errorId} className="flex items-start gap-1.5 text-sm font-medium text-festive-800">
          <span aria-hidden="true">⚠</span>
          <span>{error}</span>
        </p>
      )}
    </div>
  );
});
