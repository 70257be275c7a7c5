import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookDirect, headersOf, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { cameraJpeg, multipart, printItems } from './photo-fixtures';

/**
 * A booking cancelled after photos were bought by card (decisions 0065 and 0070), against the Stripe sandbox and its
 * webhooks.
 */
describe('photos: buy more by card', () => {
  let w: StaffDay;
  let sandbox: StripeSandbox;
  let dataDir: string;

  const family = (who: Person = w.family) => headersOf(w.t.app.idTokens, who);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'photo-checkout-'));
    const s = await startSandbox();
    sandbox = s.sandbox;
    w = await staffDay({ DATA_DIR: dataDir, ...s.env });
    await listenForWebhooks(w.t.app, sandbox);
  });
  afterAll(async () => {
    await w?.t.close();
    await sandbox?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'a booking whose photos were bought can still be cancelled before its session (photos come any day): the photo ' +
      'order is kept, not refunded',
    async () => {
      // Its own booking, photos uploaded ahead of the session (the API allows any day), one bought.
      const early = await bookDirect(w.t.db, w.family, w.sessions[1]!.id);
      // No card payment for the booking itself here (bookDirect's order has no PaymentIntent): only the photo order is
      // under test.
      await w.t.db.execute(
        sql`update bookings set amount_cents = 0, items =
${printItems(w.classic, 0)}::jsonb
  where id = ${early.id}::uuid`,
      );
      await w.t.db.execute(sql`update orders set amount_cents = 0 where booking_id = ${early.id}::uuid`);
      const body = multipart((await Promise.all([1, 2, 3].map(() => cameraJpeg(600, 400)))).map((data) => ({ data })));
      const upload = await w.t.app.inject({
        method: 'POST',
        url: `/api/v1/staff/bookings/${early.id}/photos`,
        payload: body.payload,
        headers: { ...body.headers, ...(await headersOf(w.t.app.idTokens, w.elf)) },
      });
      const photoIds = upload.json().items.map((i: { id: string }) => i.id) as string[];
      expect(
        (
          await w.t.app.inject({
            method: 'POST',
            url: `/api/v1/bookings/${early.id}/photos/unlock`,
            headers: await family(),
            payload: { photoIds: photoIds.slice(0, 2) },
          })
        ).statusCode,
      ).toBe(200);
      const bought = (
        await w.t.app.inject({
          method: 'POST',
          url: `/api/v1/bookings/${early.id}/photos/checkout`,
          headers: await family(),
          payload: { photoIds: [photoIds[2]] },
        })
      ).json();
      expect((await payWithCard(sandbox, bought.client_secret, CARDS.success)).status).toBe('succeeded');
      await sandbox.webhooksIdle();

      const cancelled = await w.t.app.inject({
        method: 'POST',
        url: `/api/v1/bookings/${early.id}/cancel`,
        headers: await family(),
        payload: {},
      });
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json().booking.status).toBe('cancelled');
      // Kept: still paid, nothing refunded, the photos still the family's, its tax invoice still there.
      expect(
        (await w.t.db.execute(sql`select status, refunded_cents from orders where id = ${bought.orderId}::uuid`)).rows,
      ).toEqual([{ status: 'paid', refunded_cents: 0 }]);
      expect(
        (await w.t.db.execute(sql`select count(*)::int as n from refunds where order_id = ${bought.orderId}::uuid`))
          .rows[0]!.n,
      ).toBe(0);
      const after = (
        await w.t.app.inject({ url: `/api/v1/bookings/${early.id}/photos`, headers: await family() })
      ).json();
      expect(after).toMatchObject({ unlocked: 3 });
      const original = await w.t.app.inject({
        url: `/api/v1/bookings/${early.id}/photos/${photoIds[2]}/original`,
        headers: await family(),
      });
      expect(original.statusCode).toBe(302);
      expect(
        (
          await w.t.app.inject({
            url: `/api/v1/orders/${early.id}/orders/${bought.orderId}/payment-receipt`,
            headers: await family(),
          })
        ).statusCode,
      ).toBe(200);
    },
  );
});
