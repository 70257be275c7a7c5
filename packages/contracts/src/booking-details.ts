import { z } from 'zod';
import { ACCESS_NEEDS } from './access-needs';
import { hasHiddenCharacters } from './names';

/** Who is coming to the photo (issue 18). The same rules run in the form and in the API. */

export const DETAILS_LIMITS = {
  maxChildren: 8,
  maxAdults: 8,
  maxPets: 3,
  maxChildAge: 17,
  maxFirstName: 40,
  maxNote: 200,
  /** MAX_PEOPLE_PER_PHOTO's default; the API's config and GET /common/policy give the one in force. */
  defaultMaxPeople: 8,
} as const;

export interface DetailsRules {
  /** Children plus adults in the photo. */
  maxPeople: number;
  /** Pets only on a session type that allows them (pet nights). */
  allowsPets: boolean;
}

const count = (what: string, max: number) =>
  z
    .number({ error: `Enter how many ${what}.` })
    .int(`Enter a whole number of ${what}.`)
    .min(0, `The number of ${what} cannot be negative.`)
    .max(max, `At most ${max} ${what}.`);

/**
 * Control and bidirectional-override characters: they reorder or hide text on the run sheet, the
 * CSV and the calendar file (issue 36). Line breaks are kept in notes only, as LF.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_OR_BIDI = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const noHiddenCharacters = 'Remove the hidden or control characters.';

const note = (what: string) =>
  z
    .string({ error: `${what} must be text.` })
    .overwrite((v) => v.replace(/\r\n?/g, '\n'))
    .trim()
    .max(DETAILS_LIMITS.maxNote, `${what}: at most ${DETAILS_LIMITS.maxNote} characters.`)
    .refine((v) => !CONTROL_OR_BIDI.test(v), noHiddenCharacters);

export const childSchema = z.strictObject({
  firstName: z
    .string({ error: "Enter the child's first name." })
    .trim()
    .min(1, "Enter the child's first name.")
    .max(DETAILS_LIMITS.maxFirstName, `First names: at most ${DETAILS_LIMITS.maxFirstName} characters.`)
    .refine((v) => !CONTROL_OR_BIDI.test(v) && !LINE_BREAK.test(v) && !hasHiddenCharacters(v), noHiddenCharacters),
  age: z
    .number({ error: 'Enter an age from 0 to 17.' })
    .int('Enter an age in whole years.')
    .min(0, 'Enter an age from 0 to 17.')
    .max(DETAILS_LIMITS.maxChildAge, 'Children are 17 or younger; count older ones as adults.'),
});
export type Child = z.infer<typeof childSchema>;

const baseDetails = z.strictObject({
  children: z
    .array(childSchema, { error: 'Children must be a list.' })
    .max(DETAILS_LIMITS.maxChildren, `At most ${DETAILS_LIMITS.maxChildren} children.`),
  adults: count('adults', DETAILS_LIMITS.maxAdults),
  pets: count('pets', DETAILS_LIMITS.maxPets),
  accessNeeds: z
    .array(z.enum(ACCESS_NEEDS, { error: 'Choose from wheelchair access, sensory-friendly or Auslan.' }))
    .refine((needs) => new Set(needs).size === needs.length, 'Each access need once only.'),
  // Optional (absent = empty): a family need not write anything (API.md, privacy).
  accessNote: note('The access note').default(''),
  noteForSanta: note('The note for Santa').default(''),
});

/**
 * The details schema for one session type with the limit in force: the API validates
 * PUT /bookings/{id}/details with it and the web form uses it as its resolver.
 */
export function bookingDetailsSchemaFor(rules: DetailsRules) {
  return baseDetails.superRefine((d, ctx) => {
    const people = d.children.length + d.adults;
    if (people === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['adults'],
        message: 'Tell us who is coming: at least one child or adult.',
      });
    if (people > rules.maxPeople)
      ctx.addIssue({
        code: 'custom',
        path: ['adults'],
        message: `At most ${rules.maxPeople} people fit in the photo (children and adults together).`,
      });
    if (d.pets > 0 && !rules.allowsPets)
      ctx.addIssue({ code: 'custom', path: ['pets'], message: 'Pets come to pet nights only.' });
  });
}

/** The shape alone (OpenAPI, responses): every rule that needs no session type. */
export const bookingDetailsSchema = baseDetails.meta({ id: 'BookingDetails' });
export type BookingDetails = z.infer<typeof baseDetails>;
/** What a form holds before the schema fills the optional notes. */
export type BookingDetailsInput = z.input<typeof baseDetails>;
/** Details with the parent's answer to ACCESS_CONSENT, as the forms hand them on to be sent. */
export type DetailsWithConsent = BookingDetails & { consent?: boolean };

/**
 * The details as sent (PUT /bookings/{id}/details, the support desk's edit, a walk-in): with
 * `consent`, required as true when they carry access needs or an access note (needsConsent).
 */
export const bookingDetailsBodySchema = baseDetails
  .extend({
    consent: z
      .boolean()
      .optional()
      .meta({
        description:
          'The parent agrees that the access needs and note may be kept (ACCESS_CONSENT); required as true when ' +
          'there ' +
          'are any',
      }),
  })
  .meta({ id: 'BookingDetailsBody' });
export type BookingDetailsBody = z.input<typeof bookingDetailsBodySchema>;

export const EMPTY_DETAILS: BookingDetails = {
  children: [],
  adults: 1,
  pets: 0,
  accessNeeds: [],
  accessNote: '',
  noteForSanta: '',
};

/** "Mia (6) and Leo (3), 2 adults, 1 pet": first names only, for mail, calendars and cards. */
export function detailsSummary(d: BookingDetails): string {
  const kids = d.children.map((c) => `${c.firstName} (${c.age})`);
  const names = kids.length > 1 ? `${kids.slice(0, -1).join(', ')} and ${kids.at(-1)}` : (kids[0] ?? '');
  const parts = [
    names,
    d.adults ? `${d.adults} adult${d.adults === 1 ? '' : 's'}` : '',
    d.pets ? `${d.pets} pet${d.pets === 1 ? '' : 's'}` : '',
  ];
  return parts.filter(Boolean).join(', ');
}
