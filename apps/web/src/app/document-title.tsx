import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { pageTitle } from '../lib/env';

export interface RouteHandle {
  /** The page label in '{label} | brand' (spec §2). */
  title?: string;
  /** Where a guest is sent from this protected route (spec §2 table). */
  guestRedirect?: string;
}

/** The handle of the deepest matched route that declares `key`. */
export function useRouteHandle<K extends keyof RouteHandle>(key: K): RouteHandle[K] | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle as RouteHandle | undefined;
    if (handle?.[key] !== undefined) return handle[key];
  }
  return undefined;
}

export function useDocumentTitle(label: string | undefined): void {
  useEffect(() => {
    if (label) document.title = pageTitle(label);
  }, [label]);
}

/** Sets '{label} | brand' from the matched route. */
export function DocumentTitle() {
  useDocumentTitle(useRouteHandle('title'));
  return null;
}
