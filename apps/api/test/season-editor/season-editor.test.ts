import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson, bookDirect } from '../staff/staff-fixtures';
import { createCustomer } from '../helpers/customers';
import {
  catalogueChecksum,
  demoFile,
  editorWorld,
  SYDNEY,
  sydneyEverydaySessionsFrom,
  sydneySessionAt,
  withSydneyHours,
  type EditorWorld,
} from './season-editor-fixtures';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.resolve(API_DIR, '../../node_modules/.bin/tsx');

/** 12 days of the 14 are not Thursdays; 16:30-17:30 holds six 10-minute sessions. */
const EVERYDAY_DAYS = 12;

describe('the season editor (issue 35)', () => {
  let w: EditorWorld;
  beforeAll(async () => {
    w = await editorWorld();
  });
  afterAll(async () => w?.t.close());

  it('answers the live season in the file format with its version as ETag, and keeps every version', async () => {
    const res = await w.call('GET', '/staff/season');
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBe('"1"');
    expect(res.json()).toEqual(demoFile());
    const versions = (await w.call('GET', '/staff/season/versions')).json();
    expect(versions.items).toEqual([
      expect.objectContaining({ version: 1, live: true, savedBy: { kind: 'system', id: null, email: null } }),
    ]);
    expect((await w.call('GET', '/staff/season/versions/1')).json()).toEqual(demoFile());
    expect((await w.call('GET', '/staff/season/versions/9')).statusCode).toBe(404);
  });

  it('is for managers only', async () => {
    const support = await createPerson(w.t.db, true, undefined, { role: 'support', mfaEnrolled: true });
    expect((await w.call('GET', '/staff/season', { who: support })).json().code).toBe('ROLE_FORBIDDEN');
    expect((await w.call('POST', '/staff/season/preview', { who: support, payload: demoFile() })).statusCode).toBe(403);
  });

  it('previews an hours change without writing anything', async () => {
    const before = await catalogueChecksum(w.t.db);
    const res = await w.call('POST', '/staff/season/preview', { payload: withSydneyHours('10:00-16:30') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      sessionsAdded: 0,
      sessionsRemoved: EVERYDAY_DAYS * 6,
      sessionsChanged: 0,
      conflicts: [],
      changes: [expect.objectContaining({ item: 'location', slug: SYDNEY, field: 'sessions' })],
    });
    expect(await catalogueChecksum(w.t.db)).toBe(before);
  });

  it('refuses to remove or change booked and held sessions, with the list, and changes nothing', async () => {
    const family = await createPerson(w.t.db, false);
    const booked = await sydneySessionAt(w.t.db, '2026-12-02', '17:00');
    const booking = await bookDirect(w.t.db, family, booked);
    const held = await sydneySessionAt(w.t.db, '2026-12-04', '16:40');
    const holder = await createCustomer(w.t.db, w.t.app.idTokens);
    expect(
      (
        await w.t.app.inject({
          method: 'POST',
          url: '/api/v1/bookings/reservation',
          headers: holder.headers,
          payload: { slotId: held },
        })
      ).statusCode,
    ).toBe(201);
    const file = withSydneyHours('10:00-16:30');

    const preview = (await w.call('POST', '/staff/season/preview', { payload: file })).json();
    const expected = [
      expect.objectContaining({
        slotId: booked,
        bookingId: booking.id,
        reference: booking.reference,
        location: 'sydney-pitt-street',
        change: 'removed',
      }),
      expect.objectContaining({ slotId: held, bookingId: null, reference: null, change: 'removed' }),
    ];
    expect(preview.conflicts).toEqual(expected);

    const before = await catalogueChecksum(w.t.db);
    const res = await w.call('PUT', '/staff/season', { payload: file, ifMatch: '"1"' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'SESSIONS_HAVE_BOOKINGS', conflicts: expected });
    expect(await catalogueChecksum(w.t.db)).toBe(before);
  });

  it('saves a valid hours change: the sessions past the new closing go, new ones come, a version is kept', async () => {
    expect(await sydneyEverydaySessionsFrom(w.t.db, '17:30')).toBe(0);
    // 17:00 on 2 December and 16:40 on 4 December are taken (above): opening later keeps them.
    const longer = await w.call('PUT', '/staff/season', { payload: withSydneyHours('10:00-18:00'), ifMatch: '"1"' });
    expect(longer.statusCode).toBe(200);
    expect(longer.headers.etag).toBe('"2"');
    expect(longer.json()).toEqual({
      version: 2,
      sessionsAdded: EVERYDAY_DAYS * 3,
      sessionsRemoved: 0,
      sessionsChanged: 0,
    });
    expect(await sydneyEverydaySessionsFrom(w.t.db, '17:30')).toBe(EVERYDAY_DAYS * 3);

    const back = await w.call('PUT', '/staff/season', { payload: demoFile(), ifMatch: '"2"' });
    expect(back.json()).toEqual({
      version: 3,
      sessionsAdded: 0,
      sessionsRemoved: EVERYDAY_DAYS * 3,
      sessionsChanged: 0,
    });
    expect(await sydneyEverydaySessionsFrom(w.t.db, '17:30')).toBe(0);

    const versions = (await w.call('GET', '/staff/season/versions')).json().items;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect(versions[0]).toMatchObject({
      live: true,
      savedBy: { kind: 'staff', id: w.manager.id, email: w.manager.email },
    });
    expect((await w.call('GET', '/staff/season/versions/2')).json()).toEqual(withSydneyHours('10:00-18:00'));
  });

  it('rejects a bad file with the same messages as the season:load CLI', async () => {
    const bad = demoFile() as unknown as { locations: { timezone: string; sessions: { hours: string }[] }[] };
    bad.locations[0]!.timezone = 'Mars/Olympus';
    bad.locations[1]!.sessions[0]!.hours = '17:00-10:00';
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'season-')), 'bad.json');
    fs.writeFileSync(file, JSON.stringify(bad));

    const cli = await promisify(execFile)(TSX, ['src/cli/season-load.ts', file], {
      cwd: API_DIR,
      env: { ...process.env, DATABASE_URL: w.t.databaseUrl, MIGRATION_DATABASE_URL: w.t.ownerUrl, LOG_LEVEL: 'silent' },
    }).catch((err: { code: number; stderr: string }) => err);
    expect(cli).toMatchObject({ code: 1 });
    const cliMessage = (cli as { stderr: string }).stderr.trim();
    expect(cliMessage).toContain('locations.0.timezone: an IANA time zone such as Australia/Sydney');

    for (const res of [
      await w.call('POST', '/staff/season/preview', { payload: bad }),
      await w.call('PUT', '/staff/season', { payload: bad, ifMatch: '"3"' }),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: cliMessage });
      expect(res.json().details).toContainEqual({
        path: 'locations.0.timezone',
        message: 'an IANA time zone such as Australia/Sydney',
      });
    }
  });
});
