import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { formatSessionTime } from '@kringle/contracts/dates';
import { greeting } from '@kringle/contracts/names';
import type { DelayBody } from '@kringle/contracts/wallet';
import type { AuthClaims } from '../accounts/id-tokens';
import { notFound } from '../../lib/errors';
import { insertAuditEntry, staffActor } from '../audit-trail/audit-entries.repository';
import { mailLogoUrl, renderEmail } from '../mail/mail-layout';
import { enqueueMail } from '../mail/outbox.repository';
import { textFamily } from '../sms/family-sms';
import { delaySms } from '../sms/sms-texts';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config'>;

export const DELAY_POLICY = {
  /** Families whose session starts within this are told. */
  aheadMs: 3 * 3600_000,
  /** A booking is told at most once in this long, however often the button is pressed. */
  onceEveryMs: 30 * 60_000,
};

interface Told {
  id: string;
  user_id: string;
  reference: string;
  start_at: string | Date;
  email: string;
  first_name: string;
  location_name: string;
  timezone: string;
}

/**
 * POST /staff/locations/{id}/delay: tells each family booked there in the next 3 hours and not
 * yet checked in that Santa is running late, by e-mail and (where it gave a mobile) SMS, with the
 * new expected time; at most once a booking per 30 minutes. The location's advisory lock makes
 * two presses at once tell each family once; notices, mail, SMS and audit entries are one
 * transaction, so a failure leaves none of them.
 */
export async function announceDelay(deps: Deps, staff: AuthClaims, locationId: string, body: DelayBody) {
  const now = deps.clock.now();
  const message = body.message?.trim() || null;
  return deps.db.transaction(async (tx) => {
    const found = await tx.execute(sql`select 1 from locations where id = ${locationId}::uuid`);
    if (!found.rows.length) throw notFound('That location');
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`delay:${locationId}`}, 0))`);
    const { rows } = await tx.execute(sql`
      select b.id, b.user_id, b.reference, s.start_at, u.email, u.first_name, l.name as location_name, l.timezone
      from bookings b join slots s on s.id = b.slot_id join users u on u.id = b.user_id join locations l on l.id =
      b.location_id
      where b.location_id = ${locationId}::uuid and b.status = 'completed' and b.source = 'online'
        and b.checked_in_at is null and b.no_show_at is null and u.deleted_at is null
        and s.start_at >= ${now.toISOString()}::timestamptz
        and s.start_at <= ${new Date(now.getTime() + DELAY_POLICY.aheadMs).toISOString()}::timestamptz
        and not exists (select 1 from delay_notices d where d.booking_id = b.id
          and d.sent_at > ${new Date(now.getTime() - DELAY_POLICY.onceEveryMs).toISOString()}::timestamptz)
      order by s.start_at`);
    const told = rows as unknown as Told[];
    for (const b of told) {
      const startAt = new Date(b.start_at);
      const expected = new Date(startAt.getTime() + body.minutes * 60_000);
      await tx.execute(sql`
        insert into delay_notices (booking_id, location_id, minutes, message, expected_start_at, sent_at, sent_by)
        values (${b.id}::uuid, ${locationId}::uuid, ${body.minutes}, ${message}, ${expected.toISOString()}::timestamptz,
          ${now.toISOString()}::timestamptz, ${staff.userId}::uuid)`);
      const booking = { reference: b.reference, locationName: b.location_name, startAt, timezone: b.timezone };
      await enqueueMail(tx, {
        to: b.email,
        subject: `Santa is running about ${body.minutes} minutes late: ${b.location_name}`,
        ...renderEmail({
          brandName: deps.config.BRAND_NAME,
          logoUrl: mailLogoUrl(deps.config.PUBLIC_URL),
          title: 'Santa is running late',
          intro: [
            greeting(b.first_name),
            `Santa is running about ${body.minutes} minutes late at ${b.location_name}. Your session at ` +
              `${formatSessionTime(startAt, b.timezone)} should now start around ` +
              `${formatSessionTime(expected, b.timezone)}. We are sorry for the wait.`,
            ...(message ? [message] : []),
          ],
          details: [{ label: 'Booking', value: b.reference }],
          action: { label: 'See my booking', url: `${deps.config.PUBLIC_URL}/bookings` },
        }),
      });
      await textFamily(tx, deps.config, {
        userId: b.user_id,
        bookingId: b.id,
        kind: 'delay',
        body: delaySms(deps.config.BRAND_NAME, booking, body.minutes, expected, message),
        now,
      });
      await insertAuditEntry(tx, {
        at: now,
        actor: staffActor(staff),
        action: 'booking.delay_notified',
        bookingId: b.id,
        orderId: null,
        reason: message,
        before: {},
        after: { minutes: body.minutes, expectedStartAt: expected.toISOString() },
      });
    }
    return { families: told.length };
  });
}
