import { z } from 'zod';
import { calendarDateSchema, DATE_PATTERN } from './dates';

/** API.md "Additions" → "Waitlist". */
export const joinWaitlistBodySchema = z.strictObject({
  locationId: z.uuid(),
  slotTypeId: z.uuid(),
  date: calendarDateSchema.meta({ description: "a day in the location's time zone (YYYY-MM-DD)" }),
});
export type JoinWaitlistBody = z.infer<typeof joinWaitlistBodySchema>;

export const WAITLIST_ENTRY_STATUSES = ['waiting', 'offered'] as const;

export const waitlistOfferSchema = z
  .object({
    reservationId: z
      .uuid()
      .meta({ description: 'the hold kept for this family: use it with the reservation, cart and checkout endpoints' }),
    slotId: z.uuid(),
    startAt: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: 'WaitlistOffer' });
export type WaitlistOffer = z.infer<typeof waitlistOfferSchema>;

export const waitlistEntrySchema = z
  .object({
    id: z.uuid(),
    locationId: z.uuid(),
    slotTypeId: z.uuid(),
    date: z.string().regex(DATE_PATTERN),
    status: z.enum(WAITLIST_ENTRY_STATUSES),
    position: z.number().int().min(1).meta({
      description: '1 for the first in line (families with an open offer count, ahead of those who joined after them)',
    }),
    createdAt: z.iso.datetime(),
    offer: waitlistOfferSchema.nullable(),
  })
  .meta({ id: 'WaitlistEntry' });
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;

export const waitlistListSchema = z.object({ items: z.array(waitlistEntrySchema) }).meta({ id: 'WaitlistEntries' });
export type WaitlistList = z.infer<typeof waitlistListSchema>;

export const waitlistParamsSchema = z.strictObject({ id: z.uuid() });
