import type { PrivacyPolicy } from '@kringle/contracts/privacy';
import type { Config } from '../../config/config';

/**
 * The privacy policy in force (GET /common/privacy, the /privacy page): what, why, who sees it, how
 * long, how to ask. Its numbers are the configured retention periods, so the words never promise
 * what the purge jobs do not do.
 */
export function privacyPolicy(
  config: Pick<
    Config,
    | 'BRAND_NAME'
    | 'PRIVACY_CONTACT_EMAIL'
    | 'DETAILS_RETENTION_DAYS'
    | 'PHOTO_RETENTION_DAYS'
    | 'INVOICE_RETENTION_YEARS'
    | 'UNVERIFIED_ACCOUNT_DAYS'
  >,
): PrivacyPolicy {
  const brand = config.BRAND_NAME;
  const contact = config.PRIVACY_CONTACT_EMAIL;
  return {
    version: '2026-11-26',
    brandName: brand,
    contactEmail: contact,
    sections: [
      {
        heading: 'What we keep',
        paragraphs: [
          'Your account: your name, e-mail address, phone number if you give it, and your password (scrambled, we ' +
            'cannot read it).',
          'Your bookings: where and when, what you bought, your payments and refunds, and the e-mails we sent you.',
          "Who is coming: your children's first names and ages, how many adults and pets, a note for Santa, and any " +
            'access needs you tell us about.',
          'Photos taken at the set, if your package includes them.',
        ],
      },
      {
        heading: 'Why we keep it',
        paragraphs: [
          'To take your booking and payment, send your confirmation and reminders, and prepare the visit so Santa ' +
            'and the team can welcome your family.',
          'Access needs (wheelchair access, a quieter sensory-friendly visit, an Auslan interpreter, or your note) ' +
            'can be health information. We keep them only when you tick the box to agree, and we record when you ' +
            'agreed.',
        ],
      },
      {
        heading: 'Who sees it',
        paragraphs: [
          `The ${brand} team at your location sees who is coming and your access needs on the day. Our support desk ` +
            `sees your bookings when you ask for help.`,
          'Card payments go to our payment provider, Stripe; we never see or keep your card number. We do not sell ' +
            'your information or use it for advertising.',
        ],
      },
      {
        heading: 'How long we keep it',
        paragraphs: [
          `Who is coming, the note for Santa and access needs: deleted ` +
            `${config.DETAILS_RETENTION_DAYS} days after the session.`,
          `Photos: deleted ${config.PHOTO_RETENTION_DAYS} days after the first photo of your booking.`,
          `Accounts whose e-mail address is never confirmed: deleted after ${config.UNVERIFIED_ACCOUNT_DAYS} days.`,
          `Tax invoices: the law asks us to keep them for ` +
            `${config.INVOICE_RETENTION_YEARS} years, with the name on them, even after you delete your account. ` +
            `Then the name is removed too.`,
        ],
      },
      {
        heading: 'Your choices',
        paragraphs: [
          'Download my data: your profile page gives you everything we hold about your family in one file.',
          'Correct it: change your profile and who is coming on each booking until the session starts.',
          'Delete my account: your profile page deletes your account. Upcoming bookings are cancelled with the ' +
            'refund our policy gives, your details, notes and photos are deleted at once, and you can no longer sign ' +
            'in.',
        ],
      },
      {
        heading: 'How to ask',
        paragraphs: [
          `Write to ${contact} with any question or complaint about your information. If our answer does not satisfy ` +
            `you, you can contact the Office of the Australian Information Commissioner (oaic.gov.au).`,
        ],
      },
    ],
  };
}
