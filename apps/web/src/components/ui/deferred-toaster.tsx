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
  useToastSpace(sonner !== null);
  return sonner ? <sonner.Toaster {...props} /> : null;
}

/**
 * On a phone a toast, 50 px from the top (spec §9), lay over the page's heading (issue 37 item
 * 10): while one shows, the page (`[data-toast-space]`, the layout's main) is given room above
 * it, as `--toast-space` (its padding-top), so the heading moves below the toast and back after.
 * Wide screens show toasts at the top right, clear of the heading. Only the toaster's own subtree
 * is observed.
 */
function useToastSpace(mounted: boolean) {
  useEffect(() => {
    if (!mounted) return;
    const root = document.documentElement;
    let frame = 0;
    const update = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const page = document.querySelector<HTMLElement>('[data-toast-space]');
        const phone = window.matchMedia?.('(max-width: 800px)').matches ?? false;
        const toasts = [...document.querySelectorAll<HTMLElement>('[data-sonner-toast]:not([data-removed="true"])')];
        if (!page || !phone || toasts.length === 0 || window.scrollY > 0)
          return root.style.removeProperty('--toast-space');
        // The page's own top (its padding moves what is inside it, not its box).
        const top = page.getBoundingClientRect().top;
        // Where the toasts settle, not where their entrance animation has them now: the list's
        // top and the front toast's height (offsetHeight ignores transforms); a stack peeks below it.
        const listTop = toasts[0]!.parentElement!.getBoundingClientRect().top;
        const bottom = listTop + Math.max(...toasts.map((t) => t.offsetHeight)) + (toasts.length > 1 ? 16 : 0);
        root.style.setProperty('--toast-space', `${Math.max(0, Math.ceil(bottom + 8 - top))}px`);
      });
    };
    const toaster = document.querySelector('section[aria-label^="Notifications"]');
    if (!toaster) return;
    const observer = new MutationObserver(update);
    observer.observe(toaster, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-removed', 'data-mounted', 'data-visible'],
    });
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
      root.style.removeProperty('--toast-space');
    };
  }, [mounted]);
}
