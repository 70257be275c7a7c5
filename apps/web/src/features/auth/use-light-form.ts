import { useCallback, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { FormCheck } from './auth-form-schemas';

type Errors<F extends string> = Partial<Record<F, string>>;

/**
 * react-hook-form's `onTouched` behaviour for a small form of text inputs, in a few lines:
 * a field is checked when it loses focus, then on every change; submit checks every field,
 * focuses the first refused one and hands the checked output (trimmed, normalised) to
 * `onValid`. `check` runs the shared contracts' schema (auth-form-schemas.ts checkWith), so the
 * rules and messages are the shared contracts' own. Every auth page uses it (one form style), and
 * it keeps react-hook-form out of /login's and /register's first paint (decision 0013); the
 * who's-coming form, with its list of children, keeps react-hook-form.
 */
export function useLightForm<TValues extends Record<string, string>, TOutput>(options: {
  defaultValues: TValues;
  check: (values: TValues) => Promise<FormCheck<TOutput>>;
}) {
  type F = keyof TValues & string;
  const [values, setValues] = useState<TValues>(options.defaultValues);
  const [errors, setErrors] = useState<Errors<F>>({});
  const [isSubmitting, setSubmitting] = useState(false);
  const touched = useRef(new Set<F>());
  const submitted = useRef(false);
  const inputs = useRef(new Map<F, HTMLInputElement>());
  const runs = useRef(new Map<F, number>());
  const { check: run } = options;

  const check = useCallback(
    async (next: TValues) => {
      const result = await run(next);
      return { found: result.errors as Errors<F>, output: result.output };
    },
    [run],
  );

  const checkField = useCallback(
    async (name: F, next: TValues) => {
      const run = (runs.current.get(name) ?? 0) + 1;
      runs.current.set(name, run);
      const { found } = await check(next);
      if (runs.current.get(name) !== run) return; // a later keystroke's check wins
      setErrors((current) => ({ ...current, [name]: found[name] }));
    },
    [check],
  );

  const field = (name: F) => ({
    name,
    value: values[name],
    ref: (element: HTMLInputElement | null) => {
      if (element) inputs.current.set(name, element);
      else inputs.current.delete(name);
    },
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [name]: event.target.value };
      setValues(next);
      if (touched.current.has(name) || submitted.current) void checkField(name, next);
    },
    onBlur: () => {
      touched.current.add(name);
      void checkField(name, values);
    },
  });

  const handleSubmit = (onValid: (output: TOutput) => Promise<void> | void) => async (event?: FormEvent) => {
    event?.preventDefault();
    submitted.current = true;
    setSubmitting(true);
    try {
      const { found, output } = await check(values);
      setErrors(found);
      const refused = (Object.keys(values) as F[]).find((name) => found[name]);
      if (refused || output === undefined) {
        if (refused) inputs.current.get(refused)?.focus();
        return;
      }
      await onValid(output);
    } finally {
      setSubmitting(false);
    }
  };

  /** A refusal from the server, shown next to its field (react-hook-form's setError). */
  const setError = (name: F, message: string | undefined) => setErrors((current) => ({ ...current, [name]: message }));

  return { values, errors, isSubmitting, field, handleSubmit, setError };
}
