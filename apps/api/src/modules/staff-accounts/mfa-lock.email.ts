import { renderEmail } from '../mail/mail-layout';
import type { OutgoingMail } from '../mail/outbox.repository';

/** "2026-12-01 21:55 UTC": staff are in several time zones, and UTC is unambiguous in a security notice. */
const utc = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The notices of a second-factor lock (issue 48 item 2): the member, because someone who knows
 * their password is guessing codes; every manager, because they can deactivate the account or
 * reset its password and factor.
 */
export function mfaLockedMails(input: {
  brandName: string;
  member: string;
  managers: string[];
  lockedUntil: Date;
  failures: number;
}): OutgoingMail[] {
  const { brandName, member, lockedUntil, failures } = input;
  const details = [
    { label: 'Account', value: member },
    { label: 'Wrong codes in a row', value: String(failures) },
    { label: 'No code accepted until', value: utc(lockedUntil) },
  ];
  const toMember: OutgoingMail = {
    to: member,
    subject: `${brandName} staff sign-in locked after wrong codes`,
    ...renderEmail({
      brandName,
      title: 'Your sign-in codes are locked for 15 minutes',
      intro: [
        'Hello,',
        `Someone signed in to your ` +
          `${brandName} staff account with its password and then entered ` +
          `${failures} wrong codes in a row, so the account accepts no code (recovery codes included) for 15 minutes.`,
      ],
      details,
      outro: [
        'If this was you, wait and try again with the newest code from your app.',
        'If it was not you, your password is known to someone else: change it now and tell a manager.',
      ],
    }),
  };
  const toManagers = input.managers
    .filter((to) => to !== member)
    .map((to): OutgoingMail => ({
      to,
      subject: `${brandName}: a staff account's sign-in codes are locked`,
      ...renderEmail({
        brandName,
        title: 'A staff account is locked after wrong codes',
        intro: [
          'Hello,',
          `The staff account ${member} was signed into with its password, then ` +
            `${failures} wrong codes were entered in a row. It accepts no code for 15 minutes.`,
        ],
        details,
        outro:
          'If the member did not do this, their password is known to someone else: deactivate the account, or ask ' +
          'them to change the password, in the staff app.',
      }),
    }));
  return [toMember, ...toManagers];
}
