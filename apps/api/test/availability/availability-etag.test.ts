import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { type ApiProcesses } from '../helpers/api-processes';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { startSeasonOnProcesses, type SeasonOnProcesses } from '../helpers/season-on-processes';

const NOW = new Date('2026-12-01T00:00:00Z');

/**
 * Availability answers built once per change (decision 0029): a strong ETag, 304 to a client that
 * has the answer, gzip and brotli forms of the same JSON, and a new tag as soon as a slot changes.
 */
describe('availability answers with ETags and compressed forms', () => {
  let t: TestApp;
  let family: TestCustomer;
  let slotsUrl: string;
  let datesUrl: string;
  let sessionId: string;
  let clock: ManualClock;

  const read = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ url, headers: { ...family.headers, ...headers } });

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    t = await createTestApp({}, clock);
    await loadSeason(t.db, demoSeason(NOW), NOW);
    family = await createCustomer(t.db, t.app.idTokens);
    const loc = (await read('/api/v1/common/locations')).json().items[0];
    slotsUrl = `/api/v1/booking-slot/${loc.id}/available-slots?date=2026-12-03&slotTypeId=${loc.slotTypes[0].id}`;
    datesUrl =
      `/api/v1/booking-slot/${loc.id}/available-dates?slotTypeId=` +
      `${loc.slotTypes[0].id}&from=2026-12-03&to=2026-12-05`;
    sessionId = (await read(slotsUrl)).json().items.find((s: { kind: string }) => s.kind === 'session').id;
  });
  afterAll(async () => t.close());

  it('tags the answer, keeps it private but revalidated, and keeps the security headers', async () => {
    for (const url of [slotsUrl, datesUrl]) {
      const res = await read(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      // CORS's Vary: Origin (several app origins) is kept.
      expect(res.headers.vary).toBe('Origin, Accept-Encoding');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['content-encoding']).toBeUndefined();
      // Read twice, the same bytes carry the same tag.
      expect((await read(url)).headers.etag).toBe(res.headers.etag);
    }
  });

  it('answers 304 with no body when If-None-Match names the answer, in any coding, weak or strong', async () => {
    const etag = (await read(slotsUrl)).headers.etag as string;
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, etag.replace(/"$/, '-br"'), '*']) {
      const res = await read(slotsUrl, { 'if-none-match': inm });
      expect(res.statusCode, inm).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers.vary).toContain('Accept-Encoding');
      // The headers that only govern a body stay with the stored 200 (BODY_ONLY_HEADERS).
      expect(res.headers['x-content-type-options']).toBeUndefined();
      expect(res.headers['content-security-policy']).toBeUndefined();
    }
    expect((await read(slotsUrl, { 'if-none-match': '"something-else"' })).statusCode).toBe(200);
    // A revalidation is still a customer read: no token, no answer.
    expect((await t.app.inject({ url: slotsUrl, headers: { 'if-none-match': etag } })).statusCode).toBe(401);
  });

  it('sends gzip or brotli as Accept-Encoding asks, each decoding to the same JSON', async () => {
    const plain = await read(slotsUrl);
    const br = await read(slotsUrl, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.headers.etag).toBe((plain.headers.etag as string).replace(/"$/, '-br"'));
    const gz = await read(slotsUrl, { 'accept-encoding': 'gzip;q=1, br;q=0.5' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(
      (await read(slotsUrl, { 'accept-encoding': 'br;q=0, identity' })).headers['content-encoding'],
    ).toBeUndefined();
    const dates = await read(datesUrl, { 'accept-encoding': 'gzip' });
    expect(gunzipSync(dates.rawPayload).toString()).toBe((await read(datesUrl)).body);
  });

  it('refreshes in the background after a 304 without breaking the readers who wait for it', async () => {
    const url = slotsUrl.replace('2026-12-03', '2026-12-06');
    const first = await read(url);
    // Past three quarters of the answer's life: this 304 starts a background refresh...
    clock.advance(800);
    expect((await read(url, { 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
    // ...which a reader arriving after the answer expired waits for: it is the same answer, as 200.
    clock.advance(200);
    const joined = await read(url);
    expect(joined.statusCode).toBe(200);
    expect(joined.body).toBe(first.body);
  });

  it('gives a new ETag and the new data as soon as a slot changes through this process', async () => {
    const before = await read(slotsUrl);
    const hold = await t.app.inject({
      method: 'POST',
      url: '/api/v1/bookings/reservation',
      headers: family.headers,
      payload: { slotId: sessionId },
    });
    expect(hold.statusCode).toBe(201);
    const after = await read(slotsUrl, { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json().items.find((s: { id: string }) => s.id === sessionId).status).toBe('reserved');
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/bookings/reservation/${hold.json().id}/cancel`,
      headers: family.headers,
    });
    // Freed again: the same bytes as before, so the same tag, and the old copy is current again.
    expect((await read(slotsUrl, { 'if-none-match': before.headers.etag as string })).statusCode).toBe(304);
  });
});

describe('availability ETags across two API processes', () => {
  let api: ApiProcesses;
  let world: SeasonOnProcesses;
  let families: TestCustomer[];
  let slotsUrl: string;
  let slotId: string;

  beforeAll(async () => {
    world = await startSeasonOnProcesses(2, 2);
    ({ api, families } = world);
    ({ slotId, slotsUrl } = world.session);
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  const read = (i: number, ifNoneMatch?: string) =>
    fetch(`${api.urls[i]}${slotsUrl}`, {
      headers: { ...families[0]!.headers, ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) },
    });

  it('tags the same answer alike everywhere, and a hold taken on one process retags it on both', async () => {
    const [a, b] = await Promise.all([read(0), read(1)]);
    const etag = a.headers.get('etag')!;
    expect(b.headers.get('etag')).toBe(etag);
    // Process 0 revalidates a copy that process 1 sent.
    expect((await read(0, etag)).status).toBe(304);

    const hold = await fetch(`${api.urls[0]}/api/v1/bookings/reservation`, {
      method: 'POST',
      headers: { ...families[1]!.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ slotId }),
    });
    expect(hold.status).toBe(201);
    // The process that took it knows at once.
    const onA = await read(0, etag);
    expect(onA.status).toBe(200);
    const newTag = onA.headers.get('etag')!;
    expect(newTag).not.toBe(etag);
    // The other one within its cache's life (AVAILABILITY_CACHE_MS, 1 s): a new answer, then the same tag as process 0.
    const deadline = Date.now() + 3000;
    let onB = await read(1, etag);
    while (onB.status === 304 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      onB = await read(1, etag);
    }
    expect(onB.status).toBe(200);
    const body = (await onB.json()) as { items: { id: string; status: string }[] };
    expect(body.items.find((s) => s.id === slotId)!.status).toBe('reserved');
    expect(onB.headers.get('etag')).toBe(newTag);
    expect((await read(1, newTag)).status).toBe(304);
  }, 60_000);
});
