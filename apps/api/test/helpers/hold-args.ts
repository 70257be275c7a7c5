import type { QuickHoldArgs } from '../../src/modules/sessions/hold-statements.repository';

/** A drop-day hold statement's arguments with the default policy (10-minute hold, no address cap unless given). */
export const holdArgs = (
  userId: string,
  slotId: string,
  now: Date,
  more: Partial<QuickHoldArgs> = {},
): QuickHoldArgs => ({
  reservationId: crypto.randomUUID(),
  userId,
  slotId,
  expiresAt: new Date(now.getTime() + 10 * 60_000),
  refreshesLeft: 2,
  now,
  leadCutoff: now,
  bookingLimit: 5,
  cooldownReleases: 3,
  cooldownWindowMinutes: 10,
  address: null,
  addressLimit: 0,
  ...more,
});
