import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { carryRecordedEvents } from '../lib/analytics';
import { needsOwnDocument } from '../lib/payment-pages';
import { persistor } from './store';

/**
 * A payment page is entered by a full navigation (issue 51, decision 0098): a document keeps the CSP it loaded with,
 * so one opened on My Bookings would pay under My Bookings' CSP, analytics hosts and all. The router has moved to
 * the new address; the wizard's stored state is written out first, then the page loads there as a document of its
 * own. True while that happens, so the page is not drawn in the old document meanwhile.
 */
export function usePaymentPageDocument(): boolean {
  const { pathname } = useLocation();
  // The page the app first drew is the document's (the memory router's first entry in tests).
  const [documentPath] = useState(pathname);
  const reload = needsOwnDocument(pathname, documentPath);
  useEffect(() => {
    if (!reload) return;
    carryRecordedEvents();
    void persistor.flush().then(() => window.location.reload());
  }, [reload]);
  return reload;
}
