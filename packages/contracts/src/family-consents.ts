import { z } from 'zod';

/**
 * The choices a family makes apart from any booking (issue 51, decision 0097): each is off until
 * the parent turns it on, in these words; a change of words gets a new version, so the record says
 * which words were agreed to. `days` is how long a consent lasts (null: until withdrawn).
 *
 * - `marketing_email` (Spam Act 2003): news and offers by e-mail, such as more photos to buy or
 *   next season's opening. Booking e-mails are sent whatever this says; they carry no offers.
 * - `photo_showcase` (the OAIC's Children's Online Privacy Code, APP 6): the brand may show the
 *   family's photos with Santa in its own promotion. A secondary use of a child's image, so it is
 *   separate, time-limited and asked of the parent.
 */
export const FAMILY_CONSENTS = {
  marketing_email: {
    version: '2026-12-02',
    days: null,
    label: 'Send me news and offers by e-mail',
    text:
      'Yes, e-mail me news and offers, such as more of our photos to buy and when next season opens. ' +
      'One e-mail at a time, and one tap in any of them stops them.',
  },
  photo_showcase: {
    version: '2026-12-02',
    days: 365,
    label: "Let the brand show our family's photos",
    text:
      'Yes, you may show our photos with Santa in your shop windows, website and social posts for the next 12 ' +
      'months. ' +
      'No names are shown. I can withdraw this at any time, and photos already on show are taken down within 7 days.',
  },
} as const;

export const FAMILY_CONSENT_KINDS = ['marketing_email', 'photo_showcase'] as const;
export type FamilyConsentKind = (typeof FAMILY_CONSENT_KINDS)[number];
export const familyConsentKindSchema = z.enum(FAMILY_CONSENT_KINDS);

export const familyConsentSchema = z
  .object({
    kind: familyConsentKindSchema,
    given: z.boolean().meta({ description: 'On now: given, not withdrawn and not expired' }),
    label: z.string(),
    text: z.string().meta({ description: 'The words asked now (FAMILY_CONSENTS)' }),
    wordingVersion: z.string().meta({ description: 'The version of the words asked now' }),
    givenAt: z.iso.datetime().nullable(),
    expiresAt: z.iso.datetime().nullable().meta({ description: 'When a given consent lapses; null: until withdrawn' }),
    agreedVersion: z.string().nullable().meta({ description: 'The version of the words the live consent agreed to' }),
  })
  .meta({ id: 'FamilyConsent' });
export type FamilyConsent = z.infer<typeof familyConsentSchema>;

export const familyConsentsSchema = z.object({ items: z.array(familyConsentSchema) }).meta({ id: 'FamilyConsents' });

/** PUT /user/consents/{kind}: on (with the version of the words shown) or off, one call either way. */
export const setFamilyConsentBodySchema = z
  .strictObject({
    given: z.boolean({ error: 'Say whether you agree.' }),
    wordingVersion: z.string().max(40).optional().meta({
      description:
        'Required with given:true: the version of the words the parent saw (409 CONSENT_WORDING_CHANGED if old)',
    }),
  })
  .meta({ id: 'SetFamilyConsentBody' });
export type SetFamilyConsentBody = z.infer<typeof setFamilyConsentBodySchema>;
