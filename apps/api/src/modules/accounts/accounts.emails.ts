import { greeting } from '@kringle/contracts/names';
import { mailLogoUrl, renderEmail } from '../mail/mail-layout';
import type { OutgoingMail } from '../mail/outbox.repository';

interface ActionMailInput {
  brandName: string;
  to: string;
  firstName: string;
  link: string;
}

// The app's logo sits at the root of the same origin the action link points to.
const logoUrl = mailLogoUrl;

export function verifyEmailMail({ brandName, to, firstName, link }: ActionMailInput): OutgoingMail {
  const subject = `Verify your email address for ${brandName}`;
  return {
    to,
    subject,
    ...renderEmail({
      brandName,
      logoUrl: logoUrl(link),
      title: 'Verify your email address',
      intro: [
        greeting(firstName),
        `Tap the button to confirm this is your email address, then you can book your photos with Santa.`,
      ],
      action: { label: 'Verify email address', url: link },
      outro: [
        'This link works once and expires in 24 hours.',
        `If you did not create a ${brandName} account, you can ignore this email.`,
      ],
    }),
  };
}

export function resetPasswordMail({ brandName, to, firstName, link }: ActionMailInput): OutgoingMail {
  const subject = `Reset your ${brandName} password`;
  return {
    to,
    subject,
    ...renderEmail({
      brandName,
      logoUrl: logoUrl(link),
      title: 'Reset your password',
      intro: [greeting(firstName), 'We received a request to reset your password. Tap the button to choose a new one.'],
      action: { label: 'Choose a new password', url: link },
      outro: [
        'This link works once and expires in 1 hour. Only the newest link you asked for works.',
        'If you did not ask for this, you can ignore this email: your password stays the same.',
      ],
    }),
  };
}
