import { z } from 'zod';

/** DELETE /user (API.md "Privacy"): the password again and the account's e-mail typed to confirm. */
export const deleteAccountBodySchema = z
  .strictObject({
    password: z.string({ error: 'Enter your password.' }).min(1, 'Enter your password.').max(200),
    confirmEmail: z
      .string({ error: 'Type your e-mail address to confirm.' })
      .trim()
      .min(1, 'Type your e-mail address to confirm.')
      .max(254),
    cancelUpcoming: z
      .boolean()
      .optional()
      .meta({
        description:
          'Cancel the upcoming bookings by the policy (refunded) and go ahead; without it they answer 409 ' +
          'UPCOMING_BOOKINGS',
      }),
  })
  .meta({ id: 'DeleteAccountBody' });
export type DeleteAccountBody = z.infer<typeof deleteAccountBodySchema>;

export const deleteAccountResultSchema = z
  .object({
    deleted: z.literal(true),
    cancelled: z
      .array(z.object({ reference: z.string(), refundCents: z.number().int() }))
      .meta({ description: 'Upcoming bookings cancelled with the account, and their refunds' }),
  })
  .meta({ id: 'DeleteAccountResult' });
export type DeleteAccountResult = z.infer<typeof deleteAccountResultSchema>;

const section = z.object({ heading: z.string(), paragraphs: z.array(z.string()) });

/** GET /common/privacy: the policy in force, in plain words, with the brand's name and contact. */
export const privacyPolicySchema = z
  .object({
    version: z.string(),
    brandName: z.string(),
    contactEmail: z.string(),
    sections: z.array(section),
    childrensNotice: section.meta({
      description:
        "The notice for children and their parents (OAIC Children's Online Privacy Code), shown beside the full " +
        'policy at /privacy',
    }),
  })
  .meta({ id: 'PrivacyPolicy' });
export type PrivacyPolicy = z.infer<typeof privacyPolicySchema>;

/**
 * The export's file name, dated by the family's own calendar (issue 53 item 16): at 9 am in Sydney
 * on 2 December it is still 1 December in UTC. The web app passes the browser's zone, the API the
 * zone of the family's location.
 */
export function exportFileName(now: Date, timeZone: string): string {
  let day: string;
  try {
    day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    day = now.toISOString().slice(0, 10);
  }
  return `my-data-${day}.json`;
}
