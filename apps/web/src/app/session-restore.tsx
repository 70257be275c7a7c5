import { useEffect } from 'react';
import { initialiseSession } from '../features/auth/session';
import { store } from './store';

let restoreStarted = false;

/**
 * Rendered with the routed page (the root route), so its effect runs once the first page has
 * committed; the restore then starts after that frame's paint. Started alongside the render, the
 * app check's requests and its worker competed with it: on a phone the page painted after them,
 * later by about two round trips (decision 0036). Its calls start no later than this anyway.
 */
export function RestoreSessionAfterPaint() {
  useEffect(() => {
    if (restoreStarted || store.getState().auth.initialised) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        restoreStarted = true;
        void store.dispatch(initialiseSession());
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return null;
}
