import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicKey } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsRegistry } from '../../src/modules/operations/metrics';
import '../../src/modules/operations/operations.gauges';
import { GoogleWalletApi } from '../../src/modules/wallet/google-wallet-api';
import { googleObjectId } from '../../src/modules/wallet/google-pass';
import { syncGoogleObjects } from '../../src/modules/wallet/wallet.service';
import { bookDirect, staffDay, type StaffDay } from '../staff/staff-fixtures';

interface Seen {
  method: string;
  path: string;
  auth?: string;
  body: string;
}

/**
 * Google's token endpoint and Wallet API, the part of the internet the sync talks to, as a local
 * server: it grants a token for a jwt-bearer assertion, answers PATCHes of the objects it was told
 * exist, 404 for others, and 500 while `failing`.
 */
function fakeGoogle() {
  const seen: Seen[] = [];
  const saved = new Set<string>();
  const state = { failing: false };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, path: req.url!, auth: req.headers.authorization, body });
      if (req.url === '/token') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ access_token: 'ya29.test-token', expires_in: 3599, token_type: 'Bearer' }));
      }
      const id = decodeURIComponent(/^\/v1\/eventTicketObject\/(.+)$/.exec(req.url ?? '')?.[1] ?? '');
      if (state.failing) res.writeHead(500).end();
      else if (req.method === 'PATCH' && saved.has(id)) res.writeHead(200).end(body);
      else res.writeHead(404).end();
    });
  });
  return { server, seen, saved, state };
}

describe('Google Wallet objects follow the booking (issue 54)', () => {
  let w: StaffDay;
  let google: ReturnType<typeof fakeGoogle>;
  let api: GoogleWalletApi;
  let tokenUrl: string;
  beforeAll(async () => {
    w = await staffDay();
    google = fakeGoogle();
    await new Promise<void>((resolve) => google.server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(google.server.address() as AddressInfo).port}`;
    const keys = await w.t.app.walletKeys.get();
    tokenUrl = `${base}/token`;
    api = new GoogleWalletApi(keys.google!, { token: tokenUrl, api: `${base}/v1` });
  });
  afterAll(async () => {
    google?.server.close();
    await w?.t.close();
  });

  /** A confirmed booking, as of the app clock, whose save link the family asked for. */
  async function savedLink(session: number) {
    const b = await bookDirect(w.t.db, w.family, w.sessions[session]!.id);
    await w.t.db.execute(
      sql`update bookings set updated_at = ${w.clock.now().toISOString()}::timestamptz where id = ${b.id}::uuid`,
    );
    expect((await w.call('GET', `/bookings/${b.id}/wallet/google`, w.family)).statusCode).toBe(200);
    return b;
  }
  const patches = () => google.seen.filter((s) => s.method === 'PATCH');
  /** A series' value as a scrape reads it (the gauges' collect runs). */
  const metric = async (name: string, labels: Record<string, string>) => {
    const { values } = await metricsRegistry.getSingleMetric(name)!.get();
    const match = values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
    return match?.value ?? 0;
  };
  const sync = () => syncGoogleObjects(w.t.app, api, w.t.app.log);

  it('sends a reschedule as a PATCH of the object, authorised by a token the service account asked for', async () => {
    const b = await savedLink(4);
    const keys = await w.t.app.walletKeys.get();
    const objectId = googleObjectId(keys.google!, b.id);
    google.saved.add(objectId);
    expect(await sync()).toBe(0);

    w.clock.advance(1500);
    const hold = await w.call('POST', '/bookings/reservation', w.family, {
      slotId: w.sessions[6]!.id,
      bookingId: b.id,
    });
    expect(hold.statusCode, hold.body).toBe(201);
    const moved = await w.call('POST', `/bookings/${b.id}/reschedule`, w.family, { reservationId: hold.json().id });
    expect(moved.statusCode, moved.body).toBe(200);

    // Operations see it waiting, then sent (issue 54's metrics).
    expect(await metric('kringle_outbox_pending', { kind: 'wallet_google' })).toBe(1);
    const sentBefore = await metric('kringle_wallet_updates_total', { wallet: 'google', outcome: 'sent' });
    expect(await sync()).toBe(1);
    expect(await metric('kringle_wallet_updates_total', { wallet: 'google', outcome: 'sent' })).toBe(sentBefore + 1);
    expect(await metric('kringle_outbox_pending', { kind: 'wallet_google' })).toBe(0);
    const token = google.seen.find((s) => s.path === '/token')!;
    const form = new URLSearchParams(token.body);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    // Only the service account's public key verifies the assertion, as Google checks it.
    const publicKey = createPublicKey(keys.google!.privateKeyPem);
    const { payload } = await jwtVerify(form.get('assertion')!, publicKey, {
      issuer: keys.google!.clientEmail,
      audience: tokenUrl,
    });
    expect(payload.scope).toBe('https://www.googleapis.com/auth/wallet_object.issuer');

    const [patch] = patches();
    expect(patch).toMatchObject({ path: `/v1/eventTicketObject/${objectId}`, auth: 'Bearer ya29.test-token' });
    const sent = JSON.parse(patch!.body);
    const slot = (await w.t.db.execute(sql`select start_at from slots where id = ${w.sessions[6]!.id}::uuid`)).rows[0]!;
    expect(new Date(sent.validTimeInterval.start.date).getTime()).toBe(new Date(slot.start_at as string).getTime());
    expect(sent.state).toBe('ACTIVE');
    expect(sent).not.toHaveProperty('id');
    // Sent once: nothing is due until the booking changes again.
    expect(await sync()).toBe(0);
    expect(patches()).toHaveLength(1);
  });

  it('a cancel makes the object INACTIVE; a failed update is tried again, an unsaved object is let be', async () => {
    const b = await savedLink(8);
    const keys = await w.t.app.walletKeys.get();
    google.saved.add(googleObjectId(keys.google!, b.id));
    const unsaved = await savedLink(9);
    const before = patches().length;

    w.clock.advance(1500);
    expect((await w.call('POST', `/bookings/${b.id}/cancel`, w.family, {})).statusCode).toBe(200);
    await w.t.db.execute(
      sql`update bookings set updated_at = ${w.clock.now().toISOString()}::timestamptz where id = ${unsaved.id}::uuid`,
    );

    google.state.failing = true;
    const failedBefore = await metric('kringle_wallet_updates_total', { wallet: 'google', outcome: 'failed' });
    expect(await sync()).toBe(0);
    expect(await metric('kringle_wallet_updates_total', { wallet: 'google', outcome: 'failed' })).toBe(
      failedBefore + 2,
    );
    google.state.failing = false;
    expect(await sync()).toBe(2);
    const cancelled = patches()
      .slice(before)
      .filter((p) => p.path.endsWith(googleObjectId(keys.google!, b.id)));
    expect(JSON.parse(cancelled.at(-1)!.body).state).toBe('INACTIVE');
    // The one nobody saved answered 404 and is not asked again.
    expect(await sync()).toBe(0);
  });
});
