import { useEffect, useRef, useState } from 'react';
import { createPath, useBlocker, useLocation } from 'react-router';
import { analyticsSent, carryRecordedEvents } from '../lib/analytics';
import { needsOwnDocument } from '../lib/payment-pages';
import { persistor } from './store';

/** Writes the stored state out (the new document starts from it), then goes. */
function openAsDocument(go: () => void) {
  carryRecordedEvents();
  void persistor.flush().then(go);
}

/**
 * A payment page is entered by a full navigation (issue 51, decision 0098): a document keeps the CSP it loaded with,
 * so one opened on My Bookings would pay under My Bookings' CSP, analytics hosts and all. A link or navigate() into
 * one from another page's document is held (the app's one blocker: React Router allows one at a time) and the page
 * is loaded as a document instead. Back or Forward into one cannot be held: the address has moved, so it is reloaded
 * there; true meanwhile, so the page is not drawn in the old document. With GA4 on, a payment page is left the same
 * way: its document may load no gtag, so only the next one can send the family's purchase.
 */
export function usePaymentPageDocument(): boolean {
  const { pathname } = useLocation();
  // The page the app first drew is the document's (the memory router's first entry in tests).
  const [documentPath] = useState(pathname);
  const replacing = useRef(false);
  const blocker = useBlocker(({ nextLocation, historyAction }) => {
    replacing.current = historyAction === 'REPLACE';
    return historyAction !== 'POP' && needsOwnDocument(nextLocation.pathname, documentPath, analyticsSent());
  });
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    const url = createPath(blocker.location);
    openAsDocument(() => (replacing.current ? window.location.replace(url) : window.location.assign(url)));
  }, [blocker]);

  const reload = needsOwnDocument(pathname, documentPath, analyticsSent());
  useEffect(() => {
    if (reload) openAsDocument(() => window.location.reload());
  }, [reload]);
  return reload;
}
