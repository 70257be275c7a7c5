import { z } from 'zod';

/** Photos (issue 39, API.md Additions → "Photos"), shared by the API and the web apps. */
export const MAX_PHOTO_BYTES = 30 * 1024 * 1024;
/** Files per upload request; the staff app sends larger sequences in several requests. */
export const MAX_PHOTOS_PER_UPLOAD = 100;

export const photoParamsSchema = z.strictObject({ id: z.uuid() });
export const bookingPhotoParamsSchema = z.strictObject({ id: z.uuid(), photoId: z.uuid() });
export const photoBatchQuerySchema = z.strictObject({ locationId: z.uuid() });
export const assignPhotoBodySchema = z.strictObject({ bookingId: z.uuid() });
export const unlockPhotosBodySchema = z.strictObject({ photoIds: z.array(z.uuid()).min(1).max(500) });
export const extendGalleryBodySchema = z.strictObject({
  /** Days added to the later of now and the current end; default PHOTO_RETENTION_DAYS. */
  days: z.number().int().min(1).max(365).optional(),
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

export const staffPhotoListSchema = z.object({ items: z.array(staffPhotoSchema) });
export const photoBatchResultSchema = z.object({
  assigned: z.array(z.object({ bookingId: z.uuid(), count: z.number().int() })),
  unmatched: z.array(staffPhotoSchema),
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
    included: z.union([z.number().int(), z.literal('all')]).meta({ description: 'Photos the packages include plus any bought, or "all"' }),
    unlocked: z.number().int(),
    expiresAt: z.iso.datetime().nullable().meta({ description: 'When every photo is deleted; null before the first upload' }),
  })
  .meta({ id: 'PhotoGallery' });
export type Gallery = z.infer<typeof gallerySchema>;
