/**
 * The payment pages (ops/payment-page-scripts.json `pages`, decision 0098): the API serves them with a CSP of their
 * own, without analytics hosts. A document keeps the CSP it loaded with, so the app enters them by a full
 * navigation and loads no analytics in a document that opened on one (issue 51, PCI DSS SAQ A).
 */
export const PAYMENT_PAGES = ['/create-booking', '/bookings/:id/photos'] as const;

const patterns = PAYMENT_PAGES.map((p) => new RegExp(`^${p.replace(/:[a-z]+/gi, '[^/]+')}/?$`));

export const isPaymentPage = (pathname: string): boolean => patterns.some((re) => re.test(pathname));

/**
 * Whether moving to `pathname` needs a document of its own: into a payment page from a document (loaded at
 * `documentPath`, whose CSP it keeps) that is not one; and, when analytics go to GA (`analyticsOn`), out of a payment
 * page's document, so that the page after it (the confirmation above all) loads gtag and sends what was kept.
 */
export const needsOwnDocument = (pathname: string, documentPath: string, analyticsOn = false): boolean =>
  isPaymentPage(pathname) ? !isPaymentPage(documentPath) : analyticsOn && isPaymentPage(documentPath);
