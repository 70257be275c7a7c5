import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCheckInCode } from '../../src/modules/check-in/check-in-codes';
import { PushCatcher } from '../../src/modules/wallet/apns';
import { pushChangedPasses } from '../../src/modules/wallet/wallet.service';
import { passAuthToken } from '../../src/modules/wallet/apple-pass';
import { bookDirect, staffDay, type StaffDay } from '../staff/staff-fixtures';

/** The files of a .pkpass (a zip), unpacked by Debian's unzip. */
async function unzip(buf: Buffer): Promise<Record<string, Buffer>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pkpass-zip-'));
  try {
    fs.writeFileSync(path.join(dir, 'pass.pkpass'), buf);
    execFileSync('unzip', ['-q', 'pass.pkpass', '-d', 'out'], { cwd: dir });
    const out = path.join(dir, 'out');
    return Object.fromEntries(fs.readdirSync(out).map((f) => [f, fs.readFileSync(path.join(out, f))]));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** openssl, the outsider: verifies the detached PKCS#7 signature over manifest.json. */
function opensslVerify(files: Record<string, Buffer>, caPem: string | null): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pkpass-'));
  fs.writeFileSync(path.join(dir, 'manifest.json'), files['manifest.json']!);
  fs.writeFileSync(path.join(dir, 'signature'), files.signature!);
  const trust = caPem ? ['-CAfile', path.join(dir, 'ca.pem'), '-purpose', 'any'] : ['-noverify'];
  if (caPem) fs.writeFileSync(path.join(dir, 'ca.pem'), caPem);
  try {
    execFileSync(
      'openssl',
      [
        'smime',
        '-verify',
        '-binary',
        '-content',
        path.join(dir, 'manifest.json'),
        '-inform',
        'DER',
        '-in',
        path.join(dir, 'signature'),
        ...trust,
        '-out',
        '/dev/null',
      ],
      { stdio: 'pipe' },
    );
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('wallet passes', () => {
  let w: StaffDay;
  beforeAll(async () => {
    w = await staffDay();
  });
  afterAll(async () => w?.t.close());

  it("refuses a pass before payment (409 NOT_CONFIRMED) and another family's booking (404)", async () => {
    const unpaid = await bookDirect(w.t.db, w.family, w.sessions[1]!.id, { status: 'payment_pending' });
    const res = await w.call('GET', `/bookings/${unpaid.id}/wallet.pkpass`, w.family);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('NOT_CONFIRMED');
    expect((await w.call('GET', `/bookings/${unpaid.id}/wallet/google`, w.family)).json().code).toBe('NOT_CONFIRMED');
    const paid = await bookDirect(w.t.db, w.family, w.sessions[2]!.id);
    expect((await w.call('GET', `/bookings/${paid.id}/wallet.pkpass`, w.elf)).statusCode).toBe(403);
    const other = await bookDirect(w.t.db, w.elf, w.sessions[3]!.id);
    expect((await w.call('GET', `/bookings/${other.id}/wallet.pkpass`, w.family)).statusCode).toBe(404);
  });

  it("signs a pass openssl verifies, whose QR code is the booking's check-in code the set accepts", async () => {
    const b = await bookDirect(w.t.db, w.family, w.sessions[4]!.id);
    const res = await w.call('GET', `/bookings/${b.id}/wallet.pkpass`, w.family);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.apple.pkpass');
    const files = await unzip(res.rawPayload);
    const keys = await w.t.app.walletKeys.get();
    expect(opensslVerify(files, null)).toBe(true);
    expect(opensslVerify(files, keys.apple!.wwdr)).toBe(true);
    // A pass changed after signing no longer verifies.
    const tampered = { ...files, 'manifest.json': Buffer.from(files['manifest.json']!.toString().replace('{', '{ ')) };
    expect(opensslVerify(tampered, keys.apple!.wwdr)).toBe(false);

    const pass = JSON.parse(files['pass.json']!.toString());
    const booking = (await w.call('GET', `/bookings/${b.id}`, w.family)).json();
    expect(pass.barcodes[0]).toMatchObject({ format: 'PKBarcodeFormatQR', message: booking.checkInCode });
    expect(pass.serialNumber).toBe(b.id);
    expect(pass.webServiceURL).toBe(`${w.t.config.PUBLIC_URL}/api/v1/wallet/apple`);
    expect(pass.relevantDate).toBeDefined();
    expect(pass.eventTicket.auxiliaryFields[0].value).toContain('Mia');
    expect(await verifyCheckInCode(w.t.db, pass.barcodes[0].message)).toBe(b.id);
  });

  it('registers a device, pushes and serves the new pass after a reschedule, updated since a tag', async () => {
    const b = await bookDirect(w.t.db, w.family, w.sessions[5]!.id);
    // Booked by the app clock, as the API's own changes are (bookDirect writes the database's now()).
    await w.t.db.execute(
      sql`update bookings set updated_at = ${w.clock.now().toISOString()}::timestamptz where id = ${b.id}::uuid`,
    );
    const keys = await w.t.app.walletKeys.get();
    const type = keys.apple!.passTypeId;
    const token = passAuthToken(keys.authKey, b.id);
    const ws = (method: 'GET' | 'POST' | 'DELETE', url: string, auth: string | null, payload?: object) =>
      w.t.app.inject({
        method,
        url: `/api/v1/wallet/apple/v1${url}`,
        headers: auth ? { authorization: `ApplePass ${auth}` } : {},
        ...(payload ? { payload } : {}),
      });
    const reg = `/devices/device-1/registrations/${type}/${b.id}`;
    expect((await ws('POST', reg, 'x'.repeat(43), { pushToken: 'push-1' })).statusCode).toBe(401);
    expect((await ws('POST', reg, null, { pushToken: 'push-1' })).statusCode).toBe(401);
    expect((await ws('POST', reg, token, { pushToken: 'push-1' })).statusCode).toBe(201);
    expect((await ws('POST', reg, token, { pushToken: 'push-1' })).statusCode).toBe(200);

    const first = await ws('GET', `/devices/device-1/registrations/${type}`, null);
    expect(first.statusCode).toBe(200);
    const tag = first.json().lastUpdated as string;
    expect(first.json().serialNumbers).toEqual([b.id]);
    expect(
      (await ws('GET', `/devices/device-1/registrations/${type}?passesUpdatedSince=${tag}`, null)).statusCode,
    ).toBe(204);
    const catcher = new PushCatcher();
    expect(await pushChangedPasses(w.t.app, catcher, w.t.app.log)).toBe(0);

    // The family moves the booking: a reschedule hold, then the move.
    w.clock.advance(1500);
    const hold = await w.call('POST', '/bookings/reservation', w.family, {
      slotId: w.sessions[7]!.id,
      bookingId: b.id,
    });
    expect(hold.statusCode, hold.body).toBe(201);
    const moved = await w.call('POST', `/bookings/${b.id}/reschedule`, w.family, { reservationId: hold.json().id });
    expect(moved.statusCode, moved.body).toBe(200);

    expect(await pushChangedPasses(w.t.app, catcher, w.t.app.log)).toBe(1);
    expect(catcher.caught[0]).toMatchObject({ pushToken: 'push-1', passTypeId: type });
    expect(await pushChangedPasses(w.t.app, catcher, w.t.app.log)).toBe(0);
    const since = await ws('GET', `/devices/device-1/registrations/${type}?passesUpdatedSince=${tag}`, null);
    expect(since.statusCode).toBe(200);
    expect(since.json().serialNumbers).toEqual([b.id]);
    expect(BigInt(since.json().lastUpdated)).toBeGreaterThan(BigInt(tag));

    expect((await ws('GET', `/passes/${type}/${b.id}`, 'wrong-token-wrong-token')).statusCode).toBe(401);
    const latest = await ws('GET', `/passes/${type}/${b.id}`, token);
    expect(latest.statusCode).toBe(200);
    const pass = JSON.parse((await unzip(latest.rawPayload))['pass.json']!.toString());
    const slot = (await w.t.db.execute(sql`select start_at from slots where id = ${w.sessions[7]!.id}::uuid`)).rows[0]!;
    expect(new Date(pass.relevantDate).getTime()).toBe(new Date(slot.start_at as string).getTime());
    const notModified = await w.t.app.inject({
      url: `/api/v1/wallet/apple/v1/passes/${type}/${b.id}`,
      headers: { authorization: `ApplePass ${token}`, 'if-modified-since': latest.headers['last-modified'] as string },
    });
    expect(notModified.statusCode).toBe(304);

    expect((await ws('POST', '/log', null, { logs: ['a device said something'] })).statusCode).toBe(200);
    expect((await ws('DELETE', reg, token)).statusCode).toBe(200);
    expect((await ws('GET', `/devices/device-1/registrations/${type}`, null)).statusCode).toBe(204);
  });

  it('gives a Google Wallet save link whose RS256 JWT verifies with the public key and carries the code', async () => {
    const b = await bookDirect(w.t.db, w.family, w.sessions[8]!.id);
    const res = await w.call('GET', `/bookings/${b.id}/wallet/google`, w.family);
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json().saveUrl);
    expect(`${url.origin}${url.pathname}`.startsWith('https://pay.google.com/gp/v/save/')).toBe(true);
    const jwt = url.pathname.split('/').pop()!;
    expect(decodeProtectedHeader(jwt).alg).toBe('RS256');
    const keys = await w.t.app.walletKeys.get();
    // Only the public half verifies it, as Google does with the service account's published key.
    const publicPem = createPublicKey(keys.google!.privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
    const { payload } = await jwtVerify(jwt, createPublicKey(publicPem), {
      audience: 'google',
      issuer: keys.google!.clientEmail,
    });
    const booking = (await w.call('GET', `/bookings/${b.id}`, w.family)).json();
    const object = (payload.payload as { eventTicketObjects: { barcode: { value: string }; state: string }[] })
      .eventTicketObjects[0]!;
    expect(object.barcode.value).toBe(booking.checkInCode);
    expect(object.state).toBe('ACTIVE');
  });
});
