import { DEFAULT_POLICY } from './policy';

/**
 * The terms and conditions as structured text. The web page (/terms_and_conditions) and the
 * PDF (GET /api/v1/common/terms.pdf) both render these sections, so they can never disagree.
 * The policy numbers are DEFAULT_POLICY's (policy.ts), which are also the API's configured defaults.
 */

export interface TermsSection {
  heading: string;
  paragraphs: string[];
}

export const TERMS_TITLE = 'Terms and Conditions';
export const TERMS_UPDATED = '2026-11-01';

export const TERMS_SECTIONS: TermsSection[] = [
  {
    heading: '1. About these terms',
    paragraphs: [
      'These terms apply when you book a photo session with Santa through this website. By making a booking you ' +
        'agree to them.',
      'Nothing in these terms limits your rights under the Australian Consumer Law.',
    ],
  },
  {
    heading: '2. Your account',
    paragraphs: [
      'You need an account with a verified email address to make a booking. Keep your password to yourself; you are ' +
        'responsible for bookings made with your account.',
    ],
  },
  {
    heading: '3. Holding a session',
    paragraphs: [
      'When you choose a session time we hold it for you for 10 minutes while you finish your booking. You can ask ' +
        'for more time up to 2 times, 10 minutes each.',
      'If the hold runs out before you pay, the session is released for other families and you will need to choose a ' +
        'time again.',
      'Each account can have at most 5 upcoming bookings.',
    ],
  },
  {
    heading: '4. Prices and payment',
    paragraphs: [
      'All prices are in Australian dollars (AUD) and include GST. You pay by card through our payment provider, ' +
        'Stripe; we never see or store your full card number.',
      'Your booking is confirmed once your payment succeeds. We email a confirmation and a tax invoice is available ' +
        'from My Bookings at any time.',
    ],
  },
  {
    heading: '5. Rescheduling',
    paragraphs: [
      `You can move a confirmed booking to another available session at the same location up to ` +
        `${DEFAULT_POLICY.rescheduleCutoffHours} hours before the session starts, at most ` +
        `${DEFAULT_POLICY.rescheduleLimit} times per booking. The price stays the same.`,
    ],
  },
  {
    heading: '6. Cancellations and refunds',
    paragraphs: [
      `If you cancel up to ` +
        `${DEFAULT_POLICY.refundCutoffHours} hours before your session, we refund the full amount to your card. If ` +
        `you cancel later than that, the booking is cancelled without a refund.`,
      'Refunds usually reach your account within 5 to 10 business days, depending on your bank. A refund receipt is ' +
        'available from My Bookings.',
      'If we have to cancel a session, for example because Santa is unwell, we will offer you another time or a full ' +
        'refund.',
    ],
  },
  {
    heading: '7. On the day',
    paragraphs: [
      'Please arrive 10 minutes before your session. Sessions run to time, so if you arrive late your session may be ' +
        'shorter.',
      'Children must be supervised by a parent or carer at all times.',
    ],
  },
  {
    heading: '8. Photos and privacy',
    paragraphs: [
      'We use your details only to manage your booking and to contact you about it. We handle personal information ' +
        'in line with the Australian Privacy Principles.',
      'Photos taken at your session are yours. We do not use them for marketing without your written consent.',
    ],
  },
  {
    heading: '9. Contact us',
    paragraphs: [
      'Questions about a booking? Use the Help button in the app or email hello@kringle.test and we will get back to ' +
        'you within one business day.',
    ],
  },
];

/** The terms as plain text, for searching and tests. */
export function termsPlainText(): string {
  return [TERMS_TITLE, ...TERMS_SECTIONS.flatMap((s) => [s.heading, ...s.paragraphs])].join('\n');
}
