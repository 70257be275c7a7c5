import type { Config } from '../../config/config';
import type { DbOrTx } from '../../db/client';
import { enqueueSms, familyMobile, type SmsKind } from './sms.repository';

/**
 * Texts a family about a booking in the caller's transaction, when it gave a mobile (and, for
 * the day-before reminder, opted in). Returns whether an SMS was queued to be sent.
 */
export async function textFamily(
  tx: DbOrTx,
  config: Pick<Config, 'SMS_DAILY_CAP'>,
  m: { userId: string; bookingId: string; kind: SmsKind; body: string; now: Date },
): Promise<boolean> {
  const mobile = await familyMobile(tx, m.userId);
  if (!mobile || (m.kind === 'reminder' && !mobile.reminders)) return false;
  return enqueueSms(
    tx,
    { to: mobile.phone, body: m.body, kind: m.kind, userId: m.userId, bookingId: m.bookingId },
    m.now,
    config.SMS_DAILY_CAP,
  );
}
