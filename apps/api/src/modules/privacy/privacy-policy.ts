import { PURCHASE_IP_DAYS } from './purges.repository';
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
    | 'WAITLIST_OFFER_MINUTES'
    | 'HOLD_MINUTES'
  >,
): PrivacyPolicy {
  const brand = config.BRAND_NAME;
  const contact = config.PRIVACY_CONTACT_EMAIL;
  return {
    version: '2026-12-02',
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
          `The internet address a booking was paid from, with the policy you accepted: kept ` +
            `${PURCHASE_IP_DAYS} days after the payment, to answer your bank if a payment is disputed, then ` +
            `the address is deleted (at once when you delete your account).`,
        ],
      },
      {
        heading: 'Decisions our system makes',
        paragraphs: [
          'Some decisions that affect your family are made by our booking system on its own, by rules that are the ' +
            'same for every family. ' +
            'None of them uses your children’s details, your access needs or your photos.',
          'The waiting room on opening day: when sales open, everyone who joined the line before the opening is put ' +
            'in a random order ' +
            'by a draw anyone can check (the seed is published), and families are let in, in that order, as fast as ' +
            'there are sessions left. ' +
            'It uses only when you joined and your place in the draw.',
          `The waitlist: when a session frees up, it is offered to the family that joined that day's waitlist first, ` +
            `for ${config.WAITLIST_OFFER_MINUTES} minutes, ` +
            'then to the next. It uses only the day and the time you joined.',
          `Holds and limits: a session you pick is held for ` +
            `${config.HOLD_MINUTES} minutes. To keep things fair, a family can hold one session at a time, ` +
            'has a short pause after letting many sessions go in a few minutes, and each internet address can hold ' +
            'only so many sessions a day. ' +
            'Too many attempts in a short time (signing in, codes) are slowed down. These use your account, the ' +
            'times of your holds and your internet address.',
          `If you think one of these decisions treated you unfairly, write to ` +
            `${contact}: a person on our team will look at it, can put it right, and will reply.`,
        ],
      },
      {
        heading: 'News, offers and our use of photos',
        paragraphs: [
          'Booking e-mails (confirmations, changes, reminders, your photos being ready) carry no offers. We send ' +
            'news and offers only if you ask for them, ' +
            'on your profile page, and every such e-mail has a one-tap unsubscribe that works at once.',
          'We never use your children’s details or photos for anything but your visit: not for advertising, not to ' +
            'train software, and we never share them. ' +
            'We may show your photos in our own promotion only if you say yes on your profile page; that yes lasts ' +
            '12 months and you can withdraw it in one tap.',
          'Photos are private: only your family can open them, through links that expire, and they are never public ' +
            'or indexed by search engines.',
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
    childrensNotice: {
      heading: 'For children (and the grown-ups reading with them)',
      paragraphs: [
        'When your family books a visit to Santa, we keep your first name and how old you are, so Santa and his ' +
          'helpers can say hello and get ready for you.',
        'If you need something to make the visit easier, like a quiet time or a ramp, your grown-up can tell us, and ' +
          'only the team at the visit sees it.',
        `We delete these details ` +
          `${config.DETAILS_RETENTION_DAYS} days after your visit, ` +
          `and your photos ${config.PHOTO_RETENTION_DAYS} days after they are taken.`,
        'Your photos are private: only your family can see them. We never show them to anyone else or use them for ' +
          'adverts unless your grown-up says yes, and they can change their mind any time.',
        `If something worries you, ask your grown-up to write to us at ` +
          `${contact}. You can ask us to show or delete what we keep.`,
      ],
    },
  };
}
