import type { FieldValues, Resolver } from 'react-hook-form';

export interface LazyResolver<TInput extends FieldValues, TOutput> {
  resolver: Resolver<TInput, unknown, TOutput>;
  /** Starts loading the schema (see preloadOnIntent). */
  preload: () => Promise<unknown>;
}

/**
 * A react-hook-form resolver whose schema module (the shared contracts, and zod with them) loads
 * once the user starts on the form: the page paints and takes typing without the validation
 * library, which stays out of its initial JavaScript (bench/budgets). Validation itself is
 * unchanged; a check that runs before the module has arrived waits for it.
 */
export function lazyResolver<TInput extends FieldValues, TOutput>(load: () => Promise<Resolver<TInput, unknown, TOutput>>): LazyResolver<TInput, TOutput> {
  let loaded: Promise<Resolver<TInput, unknown, TOutput>> | null = null;
  const get = () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = null; // offline for a moment: the next validation tries again
      throw error;
    }));
  return {
    resolver: async (values, context, options) => (await get())(values, context, options),
    preload: get,
  };
}

/**
 * Props for the form: the schema starts loading when the user first focuses or touches it, which
 * is well before the first blur or submit needs it, and never competes with the first paint.
 */
export function preloadOnIntent(lazy: { preload: () => Promise<unknown> }) {
  const start = () => void lazy.preload().catch(() => undefined);
  return { onFocus: start, onPointerDown: start };
}
