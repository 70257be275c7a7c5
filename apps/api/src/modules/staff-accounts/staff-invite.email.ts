import type { StaffRole } from '@kringle/contracts/staff-roles';
import { mailLogoUrl, renderEmail } from '../mail/mail-layout';
import type { OutgoingMail } from '../mail/outbox.repository';

const ROLE_WORDS: Record<StaffRole, string> = {
  manager: 'a manager',
  support: 'a member of the support team',
  set: 'a member of the team at the set',
};

/** The invitation to a new staff account: the link sets the password (single use, 7 days). */
export function staffInviteMail(input: { brandName: string; to: string; role: StaffRole; link: string }): OutgoingMail {
  const { brandName, to, role, link } = input;
  return {
    to,
    subject: `You are invited to the ${brandName} staff app`,
    ...renderEmail({
      brandName,
      logoUrl: mailLogoUrl(link),
      title: 'Join the staff app',
      intro: [
        'Hello,',
        `You have been invited to the ` +
          `${brandName} staff app as ${ROLE_WORDS[role]}. Tap the button to choose your password.`,
      ],
      action: { label: 'Choose your password', url: link },
      outro: [
        'This link works once and expires in 7 days.',
        'If you were not expecting this, you can ignore this email.',
      ],
    }),
  };
}
