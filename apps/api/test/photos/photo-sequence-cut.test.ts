import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInCodeFor } from '../../src/modules/check-in/check-in-codes';
import { cameraJpeg, multipart, qrPhoto } from './photo-fixtures';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, createPerson, headersOf, staffDay, type StaffDay } from '../staff/staff-fixtures';

/**
 * A sequence too large for one request (100 files, 300 MB) is sent in several. A family whose
 * photos straddle the cut keeps them: each request continues the run the one before ended with.
 */
describe('a shooting sequence sent in several requests', () => {
  let w: StaffDay;
  let dataDir: string;
  let booking: { id: string; reference: string };
  let elsewhere: { id: string; reference: string };

  const batch = async (files: Buffer[], continueRunOf?: string) => {
    const body = multipart(files.map((data) => ({ data })));
    const query = new URLSearchParams({ locationId: w.sydney, ...(continueRunOf ? { continueRunOf } : {}) });
    return w.t.app.inject({
      method: 'POST',
      url: `/api/v1/staff/photos/batch?${query}`,
      payload: body.payload,
      headers: { ...body.headers, ...(await headersOf(w.t.app.idTokens, w.elf)) },
    });
  };
  const ownersOf = async (ids: string[]) =>
    (await w.t.db.execute(sql`select booking_id from photos where id = any(${`{${ids.join(',')}}`}::uuid[])`)).rows.map(
      (r) => r.booking_id,
    );

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'photos-cut-'));
    w = await staffDay({ DATA_DIR: dataDir });
    booking = await bookDirect(w.t.db, w.family, w.sessions[0]!.id);
    const brisbaneSlot = (
      await w.t.db.execute(
        sql`select id from slots where location_id =
${w.brisbane}::uuid and kind = 'session' and start_at > now() order by start_at limit 1`,
      )
    ).rows[0]!;
    elsewhere = await bookDirect(w.t.db, await createPerson(w.t.db, false), brisbaneSlot.id as string);
  });
  afterAll(async () => {
    await w?.t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("continues the previous request's family; the run it ends with is the next one's", async () => {
    const first = await batch([
      await cameraJpeg(),
      await qrPhoto(await checkInCodeFor(w.t.db, booking)),
      await cameraJpeg(),
    ]);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ assigned: [{ bookingId: booking.id, count: 1 }], openRunOf: booking.id });
    expect(first.json().unmatched).toHaveLength(1);

    const second = await batch([await cameraJpeg(), await cameraJpeg()], first.json().openRunOf);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual({
      assigned: [{ bookingId: booking.id, count: 2 }],
      unmatched: [],
      openRunOf: booking.id,
      rejected: [],
    });

    // A code in the continued request ends the run it was given, as within one request.
    const third = await batch([await cameraJpeg(), await qrPhoto('NOT-A-CODE'), await cameraJpeg()], booking.id);
    expect(third.json()).toMatchObject({ assigned: [{ bookingId: booking.id, count: 1 }], openRunOf: null });
    expect(await ownersOf(third.json().unmatched.map((p: { id: string }) => p.id))).toEqual([null]);
    expect((await w.call('GET', `/bookings/${booking.id}/photos`, w.family)).json().items).toHaveLength(4);
  });

  it(
    'continues no one but a confirmed booking at this location: unknown, elsewhere or cancelled, the photos wait ' +
      'unmatched',
    async () => {
      for (const runOf of [randomUUID(), elsewhere.id]) {
        const res = await batch([await cameraJpeg()], runOf);
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({ assigned: [], openRunOf: null });
        expect(res.json().unmatched).toHaveLength(1);
      }
      await w.t.db.execute(sql`update bookings set status = 'cancelled' where id = ${booking.id}::uuid`);
      const cancelled = await batch([await cameraJpeg()], booking.id);
      expect(cancelled.json()).toMatchObject({ assigned: [], openRunOf: null });
      await w.t.db.execute(sql`update bookings set status = 'completed' where id = ${booking.id}::uuid`);
      // Without it, as before: photos before the first code are unmatched, and no run is open.
      expect((await batch([await cameraJpeg()])).json()).toMatchObject({ assigned: [], openRunOf: null });
    },
  );

  it('refuses a continueRunOf that is not an id, keeping nothing', async () => {
    const before = (await w.t.db.execute(sql`select count(*)::int as n from photos`)).rows[0]!.n;
    expectContractError(await batch([await cameraJpeg()], 'not-an-id'), 400, 'VALIDATION_FAILED');
    expect((await w.t.db.execute(sql`select count(*)::int as n from photos`)).rows[0]!.n).toBe(before);
  });
});
