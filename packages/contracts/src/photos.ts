import { z } from 'zod';
import { reasonSchema } from './support';

/** Photos (issue 39, API.md Additions → "Photos"), shared by the API and the web apps. */
export const MAX_PHOTO_BYTES = 30 * 1024 * 1024;
/** Files per upload request; the staff app sends larger sequences in several requests. */
export const MAX_PHOTOS_PER_UPLOAD = 100;

export const photoParamsSchema = z.strictObject({ id: z.uuid() });
export const bookingPhotoParamsSchema = z.strictObject({ id: z.uuid(), photoId: z.uuid() });
export const photoBatchQuerySchema = z.strictObject({
  locationId: z.uuid(),
  continueRunOf: z.uuid().optional().meta({
    description:
      "The previous request's openRunOf: a sequence sent in several requests keeps its family across the cut",
  }),
});
export const assignPhotoBodySchema = z.strictObject({ bookingId: z.uuid() });
export const unlockPhotosBodySchema = z.strictObject({ photoIds: z.array(z.uuid()).min(1).max(500) });
/** More photos by card (decision 0065): the locked photos to buy, each at the season's extraPhotoPriceCents. */
export const photoCheckoutBodySchema = z.strictObject({ photoIds: z.array(z.uuid()).min(1).max(500) });
export const photoCheckoutResultSchema = z
  .object({
    orderId: z.uuid(),
    client_secret: z
      .string()
      .meta({ description: "The PaymentIntent's client secret, confirmed with the card form as at checkout" }),
    amountCents: z.number().int().meta({ description: 'What the card is charged, GST included' }),
  })
  .meta({ id: 'PhotoCheckout' });
export type PhotoCheckout = z.infer<typeof photoCheckoutResultSchema>;
/** The line item of a photo order: one product, "Extra digital photo", priced by the season. */
export const EXTRA_PHOTO_ITEM_ID = '5e1f0c2a-39a0-4c39-9d3b-0f1e2d3c4b5a';
export const extendGalleryBodySchema = z.strictObject({
  /** Days added to the later of now and the current end; default PHOTO_RETENTION_DAYS. */
  days: z.number().int().min(1).max(365).optional(),
  /** Why (3-500 characters), kept in the audit trail like every staff action on a booking. */
  reason: reasonSchema,
});

export const staffPhotoSchema = z
  .object({
    id: z.uuid(),
    bookingId: z.uuid().nullable(),
    locationId: z.uuid(),
    width: z.number().int(),
    height: z.number().int(),
    previewUrl: z.string().meta({ description: 'Signed, expires within 15 minutes' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'StaffPhoto' });
export type StaffPhoto = z.infer<typeof staffPhotoSchema>;

/** A file of an upload that was not kept; the request's other files were (issue 48 items 7, 8). */
export const rejectedPhotoSchema = z
  .object({
    file: z.string().meta({ description: "The file's name as sent" }),
    code: z.enum(['UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE']).meta({
      description:
        'UNSUPPORTED_MEDIA_TYPE: not a JPEG that reads to its end (truncated or damaged); PAYLOAD_TOO_LARGE: more ' +
        'pixels than PHOTO_MAX_PIXELS',
    }),
    message: z.string(),
  })
  .meta({ id: 'RejectedPhoto' });
export type RejectedPhoto = z.infer<typeof rejectedPhotoSchema>;
const rejected = z
  .array(rejectedPhotoSchema)
  .meta({ description: 'Files not kept, each with its name and why; empty when every file was kept' });

export const staffPhotoListSchema = z.object({ items: z.array(staffPhotoSchema), rejected });
export const photoBatchResultSchema = z.object({
  rejected,
  assigned: z.array(z.object({ bookingId: z.uuid(), count: z.number().int() })),
  unmatched: z.array(staffPhotoSchema),
  openRunOf: z.uuid().nullable().meta({
    description: "The family whose photos the sequence's last code started: the next request's continueRunOf",
  }),
});
export const galleryExtendedSchema = z.object({ bookingId: z.uuid(), expiresAt: z.iso.datetime() });

export const galleryPhotoSchema = z.object({
  id: z.uuid(),
  previewUrl: z.string().meta({ description: 'Watermarked, at most 1600 px; signed, expires within 15 minutes' }),
  width: z.number().int(),
  height: z.number().int(),
  unlocked: z.boolean(),
});
export const gallerySchema = z
  .object({
    items: z.array(galleryPhotoSchema),
    included: z
      .union([z.number().int(), z.literal('all')])
      .meta({ description: 'Photos the packages include plus any bought, or "all"' }),
    unlocked: z.number().int(),
    extraPhotoPriceCents: z.number().int().nullable().meta({
      description: 'What one more photo costs by card (POST .../photos/checkout); null when every photo is included',
    }),
    expiresAt: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'When every photo is deleted; null before the first upload' }),
  })
  .meta({ id: 'PhotoGallery' });
export type Gallery = z.infer<typeof gallerySchema>;
