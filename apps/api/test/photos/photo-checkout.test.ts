import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcilePayments } from '../../src/modules/payments/payment-reconciliation.service';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, createPerson, headersOf, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { cameraJpeg, multipart, printItems } from './photo-fixtures';

/** Buying more photos by card (issue 39, decision 0065), against the Stripe sandbox and its webhooks. */
describe('photos: buy more by card', () => {
  let w: StaffDay;
  let sandbox: StripeSandbox;
  let dataDir: string;
  let booking: { id: string; reference: string };
  let ids: string[];

  const family = (who: Person = w.family) => headersOf(w.t.app.idTokens, who);
  const checkout = async (photoIds: string[], who?: Person) =>
    w.t.app.inject({
      method: 'POST',
      url: `/api/v1/bookings/${booking.id}/photos/checkout`,
      headers: await family(who),
      payload: { photoIds },
    });
  const gallery = async () =>
    (await w.t.app.inject({ url: `/api/v1/bookings/${booking.id}/photos`, headers: await family() })).json();
  const locked = async () =>
    (await gallery()).items
      .filter((i: { unlocked: boolean }) => !i.unlocked)
      .map((i: { id: string }) => i.id) as string[];
  const extraPhotos = async () =>
    Number(
      (await w.t.db.execute(sql`select extra_photos from photo_galleries where booking_id = ${booking.id}::uuid`))
        .rows[0]!.extra_photos,
    );
  const trail = async (orderId: string) =>
    (
      await w.t.db.execute(
        sql`select actor_kind, action from audit_entries where order_id = ${orderId}::uuid order by seq`,
      )
    ).rows.map((r) => `${r.actor_kind as string}:${r.action as string}`);
  const ofIntent = (type: string, intentId: string) =>
    sandbox.events(type).filter((e) => (e.data.object as unknown as { id: string }).id === intentId);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'photo-checkout-'));
    const s = await startSandbox();
    sandbox = s.sandbox;
    w = await staffDay({ DATA_DIR: dataDir, ...s.env });
    await listenForWebhooks(w.t.app, sandbox);
    booking = await bookDirect(w.t.db, w.family, w.sessions[0]!.id);
    // Classic Print includes 2 digital photos (the demo season).
    await w.t.db.execute(
      sql`update bookings set items =
${printItems(w.classic, 3995)}::jsonb
  where id = ${booking.id}::uuid`,
    );
    const body = multipart(
      await Promise.all([1, 2, 3, 4, 5].map(() => cameraJpeg(600, 400))).then((files) =>
        files.map((data) => ({ data })),
      ),
    );
    const upload = await w.t.app.inject({
      method: 'POST',
      url: `/api/v1/staff/bookings/${booking.id}/photos`,
      payload: body.payload,
      headers: { ...body.headers, ...(await headersOf(w.t.app.idTokens, w.elf)) },
    });
    expect(upload.statusCode).toBe(201);
    ids = upload.json().items.map((i: { id: string }) => i.id);
    const unlocked = await w.t.app.inject({
      method: 'POST',
      url: `/api/v1/bookings/${booking.id}/photos/unlock`,
      headers: await family(),
      payload: { photoIds: ids.slice(0, 2) },
    });
    expect(unlocked.statusCode).toBe(200);
  });
  afterAll(async () => {
    await w?.t.close();
    await sandbox?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    "prices locked photos at the season's price; the same photos again while unpaid get the same order and " + 'intent',
    async () => {
      expect(await gallery()).toMatchObject({ included: 2, unlocked: 2, extraPhotoPriceCents: 900 });
      const first = await checkout([ids[2]!]);
      expect(first.statusCode).toBe(201);
      const again = await checkout([ids[2]!, ids[2]!]);
      expect(again.json()).toEqual(first.json());
      expect(first.json()).toMatchObject({ amountCents: 900 });
      const intentId = (first.json().client_secret as string).split('_secret_')[0]!;
      expect(ofIntent('payment_intent.created', intentId)).toHaveLength(1);
      const [order] = (
        await w.t.db.execute(
          sql`select kind, status, amount_cents, items, photo_ids from orders where id = ${first.json().orderId}::uuid`,
        )
      ).rows;
      expect(order).toMatchObject({ kind: 'photos', status: 'pending', amount_cents: 900, photo_ids: [ids[2]] });
      expect(order!.items).toEqual([
        expect.objectContaining({
          type: 'photo',
          name: 'Extra digital photo',
          quantity: 1,
          unitPriceCents: 900,
          totalCents: 900,
        }),
      ]);
      expect(await trail(first.json().orderId)).toEqual(['family:openPhotoOrder']);
    },
  );

  it('refuses photos already unlocked (409), not in the gallery or of another family (404)', async () => {
    expectContractError(await checkout([ids[0]!]), 409, 'ALREADY_PAID');
    expectContractError(await checkout([randomUUID()]), 404, 'NOT_FOUND');
    const other = await createPerson(w.t.db, false, { firstName: 'Other', lastName: 'Family' });
    expectContractError(await checkout([ids[2]!], other), 404, 'NOT_FOUND');
  });

  it(
    'a declined card unlocks nothing; the retry pays the same order; the photo unlocks once though the webhook ' +
      'comes twice; a tax invoice',
    async () => {
      const order = (await checkout([ids[2]!])).json();
      expect((await payWithCard(sandbox, order.client_secret, CARDS.declined)).status).toBe('requires_payment_method');
      await sandbox.webhooksIdle();
      expect(await locked()).toEqual(ids.slice(2));
      expect(
        (await w.t.db.execute(sql`select status from orders where id = ${order.orderId}::uuid`)).rows[0]!.status,
      ).toBe('failed');

      const retry = (await checkout([ids[2]!])).json();
      expect(retry.orderId).toBe(order.orderId);
      expect((await payWithCard(sandbox, retry.client_secret, CARDS.success)).status).toBe('succeeded');
      await sandbox.webhooksIdle();
      expect(await locked()).toEqual(ids.slice(3));
      expect(await gallery()).toMatchObject({ included: 3, unlocked: 3 });
      const intentId = (order.client_secret as string).split('_secret_')[0]!;
      await sandbox.redeliver(ofIntent('payment_intent.succeeded', intentId)[0]!.id);
      await sandbox.webhooksIdle();
      expect(await extraPhotos()).toBe(1);
      expect(await trail(order.orderId)).toEqual([
        'family:openPhotoOrder',
        'stripe:failPhotoOrder',
        'stripe:payPhotoOrder',
      ]);
      // Paid: asking for the same photo again is refused, it is the family's.
      expectContractError(await checkout([ids[2]!]), 409, 'ALREADY_PAID');

      const invoice = await w.t.app.inject({
        url: `/api/v1/orders/${booking.id}/orders/${order.orderId}/payment-receipt`,
        headers: await family(),
      });
      expect(invoice.statusCode).toBe(200);
      expect(invoice.headers['content-type']).toBe('application/pdf');
      expect(invoice.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    },
  );

  it(
    'a payment whose webhook never came is applied by reconciliation; the late webhook then changes ' + 'nothing',
    async () => {
      const order = (await checkout([ids[3]!])).json();
      sandbox.pauseWebhooks();
      expect((await payWithCard(sandbox, order.client_secret, CARDS.success)).status).toBe('succeeded');
      w.clock.advance(10 * 60_000);
      await reconcilePayments(w.t.app);
      expect(await locked()).toEqual(ids.slice(4));
      sandbox.resumeWebhooks();
      await sandbox.webhooksIdle();
      expect(await extraPhotos()).toBe(2);
      expect(await trail(order.orderId)).toEqual(['family:openPhotoOrder', 'stripe:payPhotoOrder']);
    },
  );

  it('paid after the booking was cancelled: nothing unlocks and the money goes back in full', async () => {
    const order = (await checkout([ids[4]!])).json();
    await w.t.db.execute(
      sql`update bookings set status = 'cancelled', cancelled_at = now(), cancel_reason = 'customer_cancelled' where
id = ${booking.id}::uuid`,
    );
    expect((await payWithCard(sandbox, order.client_secret, CARDS.success)).status).toBe('succeeded');
    await sandbox.webhooksIdle();
    expect(await locked()).toEqual([ids[4]]);
    // The refund settles on its own webhook, which the sandbox may send after the payment's went idle.
    const refunds = async () =>
      (
        await w.t.db.execute(
          sql`select amount_cents, reason, status from refunds where order_id = ${order.orderId}::uuid`,
        )
      ).rows;
    await expect
      .poll(refunds, { timeout: 10_000 })
      .toEqual([{ amount_cents: 900, reason: 'photos_unavailable', status: 'succeeded' }]);
    // The refund's settlement is audited too (decision 0062). Stripe's charge.refunded may reach
    // the order first (its own entry, the order's total), before the refund call's answer settles it.
    await expect
      .poll(async () => (await trail(order.orderId)).some((e) => e.endsWith(':settleRefund')), { timeout: 10_000 })
      .toBe(true);
    const [opened, refunded, ...settled] = await trail(order.orderId);
    expect([opened, refunded]).toEqual(['family:openPhotoOrder', 'stripe:refundPhotoOrder']);
    expect(settled.filter((e) => e.endsWith(':settleRefund'))).toHaveLength(1);
    expect(settled.every((e) => e.endsWith(':settleRefund') || e === 'stripe:refundReported')).toBe(true);
  });

  it("counts the family opening its gallery, first and last (a dispute's evidence of delivery)", async () => {
    const seen = async () =>
      (
        await w.t.db.execute(
          sql`select views, first_viewed_at, last_viewed_at from photo_galleries
            where booking_id = ${booking.id}::uuid`,
        )
      ).rows[0] as { views: number; first_viewed_at: string | null; last_viewed_at: string | null };
    const before = await seen();
    await gallery();
    const once = await seen();
    expect(once.views).toBe(before.views + 1);
    expect(once.first_viewed_at).not.toBeNull();
    w.clock.set(new Date(w.clock.now().getTime() + 60_000));
    await gallery();
    const twice = await seen();
    expect(twice).toMatchObject({ views: before.views + 2, first_viewed_at: once.first_viewed_at });
    expect(Date.parse(twice.last_viewed_at!)).toBeGreaterThan(Date.parse(once.last_viewed_at!));
  });
});
