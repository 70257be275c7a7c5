import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT_PX } from '../../../lib/env';

/** Whether a media query matches now, following changes (false where matchMedia is missing, as in tests). */
function useMedia(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}

/** The phone layout (spec §9: 800 px or less): the step's actions sit in a bar at the bottom. */
export const usePhoneLayout = () => useMedia(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`);
/** Wide enough for a summary beside the choices. */
export const useWideLayout = () => useMedia('(min-width: 1024px)');
