/**
 * Props for the form: the schema starts loading when the user first focuses or touches it, which
 * is well before the first blur or submit needs it, and never competes with the first paint.
 */
export function preloadOnIntent(lazy: { preload: () => Promise<unknown> }) {
  const start = () => void lazy.preload().catch(() => undefined);
  return { onFocus: start, onPointerDown: start };
}
