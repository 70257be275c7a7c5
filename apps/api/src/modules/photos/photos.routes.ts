import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import {
  MAX_PHOTO_BYTES,
  MAX_PHOTOS_PER_UPLOAD,
  assignPhotoBodySchema,
  bookingPhotoParamsSchema,
  extendGalleryBodySchema,
  galleryExtendedSchema,
  gallerySchema,
  photoBatchQuerySchema,
  photoBatchResultSchema,
  photoCheckoutBodySchema,
  photoCheckoutResultSchema,
  photoParamsSchema,
  staffPhotoListSchema,
  staffPhotoSchema,
  unlockPhotosBodySchema,
} from '@kringle/contracts/photos';
import { errors } from '../../lib/errors';
import { authOf } from '../../plugins/auth';
import { staffActor } from '../audit-trail/audit-entries.repository';
import { assertStaffLocation } from '../../plugins/staff-access';
import { openFamilyGallery, originalUrl, originalsZip, unlockPhotos } from './photo-gallery.service';
import { checkoutPhotos } from './photo-checkout.service';
import { extendPhotoGallery, servePhotoFile } from './photo-retention.service';
import type { UploadedFile } from './incoming';
import { assignUnmatched, uploadBatch, uploadToBooking } from './photo-uploads.service';

/**
 * The multipart parts of a request as the upload services read them, with multipart's errors in the contract's words.
 */
async function* jpegFiles(req: FastifyRequest): AsyncIterable<UploadedFile> {
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'files')
        throw errors.invalidField(`body.${part.fieldname}`, 'Send photos in fields named files');
      yield {
        mimetype: part.mimetype,
        filename: part.filename || 'a file without a name',
        saveTo: async (file) => {
          // Piped to the file as it arrives: never whole in memory, and never waiting on processing.
          await pipeline(part.file, createWriteStream(file, { flags: 'wx' }));
          if (part.file.truncated) throw errors.photoTooLarge(MAX_PHOTO_BYTES / 1024 / 1024);
        },
      };
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw errors.unsupportedMediaType();
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw errors.payloadTooLarge();
    throw e;
  }
}

const REJECTED_FILES =
  'A file that is not a JPEG readable to its end, or has more than PHOTO_MAX_PIXELS pixels, is not kept and is named ' +
  'in rejected; the others are. When none can be kept: 415 or 413 naming each, nothing stored.';

const multipartBody = {
  description:
    `multipart/form-data: image/jpeg files (at most ` +
    `${MAX_PHOTO_BYTES / 1024 / 1024} MB each, ${MAX_PHOTOS_PER_UPLOAD} per request) in fields named files`,
  consumes: ['multipart/form-data'],
};

/** Photos (issue 39, API.md Additions → "Photos"; decision 0054). */
export async function photosRoutes(app: FastifyInstance) {
  // Only this plugin's routes accept multipart; the rest of the API stays JSON-only.
  await app.register(multipart, {
    limits: { fileSize: MAX_PHOTO_BYTES, files: MAX_PHOTOS_PER_UPLOAD, fields: 10, parts: MAX_PHOTOS_PER_UPLOAD + 10 },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const set = { auth: 'staff' as const, staffRoles: ['set'] as const };
  const staffTags = ['staff', 'photos'];
  const tags = ['photos'];
  const errs = {
    400: errorBodySchema,
    404: errorBodySchema,
    409: errorBodySchema,
    413: errorBodySchema,
    415: errorBodySchema,
  };

  r.post(
    '/staff/bookings/:id/photos',
    {
      config: set,
      schema: {
        tags: staffTags,
        summary: 'Upload photos for a confirmed booking (any day)',
        ...multipartBody,
        description: `${multipartBody.description}. ${REJECTED_FILES}`,
        params: photoParamsSchema,
        response: { 201: staffPhotoListSchema, ...errs },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(
          await uploadToBooking(app, authOf(req), req.params.id, jpegFiles(req), (locationId) =>
            assertStaffLocation(req, locationId),
          ),
        ),
  );
  r.post(
    '/staff/photos/batch',
    {
      config: set,
      schema: {
        tags: staffTags,
        summary: "A shooting sequence in order: each photo of a family's check-in QR code starts that family's photos",
        ...multipartBody,
        description:
          `${multipartBody.description}. Photos before the first code (unless continueRunOf names a ` +
          `confirmed booking at this location), or after a code that is not one, are unmatched. The code photos ` +
          `themselves are not kept. ${REJECTED_FILES}`,
        querystring: photoBatchQuerySchema,
        response: { 201: photoBatchResultSchema, ...errs },
      },
    },
    async (req, reply) => {
      assertStaffLocation(req, req.query.locationId);
      return reply
        .code(201)
        .send(await uploadBatch(app, authOf(req), req.query.locationId, jpegFiles(req), req.query.continueRunOf));
    },
  );
  r.post(
    '/staff/photos/:id/assign',
    {
      config: set,
      schema: {
        tags: staffTags,
        summary: 'Give an unmatched photo to a confirmed booking of its location',
        params: photoParamsSchema,
        body: assignPhotoBodySchema,
        response: { 200: staffPhotoSchema, ...errs },
      },
    },
    async (req) =>
      assignUnmatched(app, staffActor(authOf(req)), req.params.id, req.body.bookingId, (locationId) =>
        assertStaffLocation(req, locationId),
      ),
  );
  r.post(
    '/staff/bookings/:id/photos/extend',
    {
      config: { auth: 'staff', staffRoles: ['manager', 'support'] },
      schema: {
        tags: staffTags,
        summary: "Extend one booking's gallery (its reminders go again before the new end)",
        description:
          'Manager or support, for a booking at one of their locations. The new end is the later of now and the ' +
          'current end plus `days` ' +
          '(default PHOTO_RETENTION_DAYS). `reason` is required and kept in the audit trail (action ' +
          '`extendPhotoGallery`, old and new end). ' +
          '404 when the booking has no gallery or it was already deleted.',
        params: photoParamsSchema,
        body: extendGalleryBodySchema,
        response: { 200: galleryExtendedSchema, ...errs },
      },
    },
    async (req) =>
      extendPhotoGallery(app, authOf(req), req.params.id, req.body, (locationId) =>
        assertStaffLocation(req, locationId),
      ),
  );

  r.get(
    '/bookings/:id/photos',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: "The family's gallery: watermarked previews behind signed URLs (15 minutes)",
        params: photoParamsSchema,
        response: { 200: gallerySchema, 404: errorBodySchema },
      },
    },
    async (req) => openFamilyGallery(app, authOf(req).userId, req.params.id),
  );
  r.post(
    '/bookings/:id/photos/unlock',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Unlock photos within what the packages include',
        description: '409 PHOTO_ALLOWANCE_USED past the allowance.',
        params: photoParamsSchema,
        body: unlockPhotosBodySchema,
        response: { 200: gallerySchema, ...errs },
      },
    },
    async (req) => unlockPhotos(app, authOf(req).userId, req.params.id, req.body.photoIds),
  );
  r.post(
    '/bookings/:id/photos/checkout',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Buy more photos by card: an order with a tax invoice, paid like a booking',
        description:
          "Creates an order of the booking for these locked photos at the season's `extraPhotoPriceCents` each, and " +
          'its PaymentIntent: confirm ' +
          '`client_secret` with the card form as at checkout. Once Stripe reports it paid (webhook or ' +
          'reconciliation) exactly these photos unlock, ' +
          'once; a failed payment unlocks nothing. The same photos asked for again while unpaid return the same ' +
          'order and intent. The tax invoice ' +
          "is the order's payment receipt (GET /orders/{bookingId}/orders/{orderId}/payment-receipt). 409 " +
          'ALREADY_PAID when a photo is already ' +
          'unlocked or every photo is included; 404 for a photo not in the gallery; 503 when card payments are not ' +
          'configured.',
        params: photoParamsSchema,
        body: photoCheckoutBodySchema,
        response: { 201: photoCheckoutResultSchema, ...errs, 503: errorBodySchema },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await checkoutPhotos(app, authOf(req).userId, req.params.id, req.body.photoIds)),
  );
  r.get(
    '/bookings/:id/photos/:photoId/original',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Redirect (302) to a signed URL of the original, valid at most 15 minutes',
        description: '403 PHOTO_LOCKED when not unlocked.',
        params: bookingPhotoParamsSchema,
        response: { 302: z.null(), 403: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (req, reply) =>
      reply
        .header('cache-control', 'no-store')
        .redirect(await originalUrl(app, authOf(req).userId, req.params.id, req.params.photoId), 302),
  );
  r.get(
    '/bookings/:id/photos.zip',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'The unlocked originals as one zip (application/zip), streamed',
        params: photoParamsSchema,
        response: { 200: z.any().meta({ description: 'application/zip' }), 404: errorBodySchema },
      },
    },
    async (req, reply) => {
      const zip = await originalsZip(app, authOf(req).userId, req.params.id);
      return reply
        .type('application/zip')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="photos-${zip.reference}.zip"`)
        .send(zip.stream);
    },
  );
  r.get(
    '/photo-files/photos/:photoId/:file',
    {
      // Opened by an <img>, a download link or a redirect, none of which can carry X-App-Check: the signature is the
      // key.
      config: { auth: 'public', appCheck: false },
      schema: {
        tags,
        summary: 'A photo file behind a signed URL (PHOTO_STORAGE=local); 404 once expired or deleted',
        params: z.strictObject({ photoId: z.uuid(), file: z.enum(['original.jpg', 'preview.jpg']) }),
        querystring: z.strictObject({ expires: z.coerce.number().int(), sig: z.string().max(100) }),
        response: { 200: z.any().meta({ description: 'image/jpeg' }), 404: errorBodySchema },
      },
    },
    async (req, reply) => {
      const file = await servePhotoFile(
        app,
        `photos/${req.params.photoId}/${req.params.file}`,
        req.query.expires,
        req.query.sig,
      );
      reply
        .type('image/jpeg')
        .header('cache-control', `private, max-age=${file.maxAgeSeconds}`)
        .header('x-content-type-options', 'nosniff')
        // A child's photo is never indexed, even from a link shared by mistake (issue 51).
        .header('x-robots-tag', 'noindex, noimageindex, nofollow');
      if (req.params.file === 'original.jpg')
        reply.header('content-disposition', `attachment; filename="${req.params.photoId}.jpg"`);
      return reply.send(file.stream);
    },
  );
}
