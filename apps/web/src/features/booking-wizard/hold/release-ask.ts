import { useSyncExternalStore } from 'react';

/**
 * Back before the Session step asks before letting the held session go (issue 37 item 2): the step
 * the family asked to go back to, while the question is open. Kept in memory only: a reload, or
 * another tab, never re-opens a question nobody asked there.
 */
let asked: number | null = null;
const listeners = new Set<() => void>();

export function askRelease(target: number | null) {
  asked = target;
  for (const listener of listeners) listener();
}

export const releaseAsked = () => asked;

export function useReleaseAsk(): number | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => asked,
  );
}
