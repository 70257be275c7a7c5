import { useEffect, useSyncExternalStore } from 'react';
import type { ToasterProps } from 'sonner';
import { loadedToasts, loadToasts, onToastsLoaded } from '../../lib/deferred-toast';

/**
 * Runs `load` at the user's first touch, click or key press, or 5 s after the page started,
 * whichever comes first: mounting the toaster is main-thread work the first paint and the
 * first interaction do not need.
 */
function whenUseful(load: () => void): () => void {
  const events = ['pointerdown', 'keydown', 'touchstart'] as const;
  const fire = () => {
    cancel();
    load();
  };
  const timer = window.setTimeout(fire, 5000);
  const cancel = () => {
    window.clearTimeout(timer);
    events.forEach((name) => window.removeEventListener(name, fire, true));
  };
  events.forEach((name) => window.addEventListener(name, fire, { capture: true, passive: true }));
  return cancel;
}

/**
 * sonner's Toaster, mounted when the library has loaded: at the first interaction or after a few
 * seconds, or at once when a toast is raised earlier (lib/deferred-toast.ts). sonner shows
 * toasts raised before it mounted as soon as it does.
 */
export function DeferredToaster(props: ToasterProps) {
  const sonner = useSyncExternalStore(onToastsLoaded, loadedToasts, () => null);
  useEffect(() => whenUseful(() => void loadToasts().catch(() => undefined)), []);
  return sonner ? <sonner.Toaster {...props} /> : null;
}
