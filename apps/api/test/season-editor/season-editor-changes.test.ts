import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueChecksum, demoFile, editorWorld, SYDNEY, type EditorWorld } from './season-editor-fixtures';

/**
 * Issue 53 items 6 and 7: the preview said "changes 0" after a $39.95 → $42.95 price change, and
 * the editor had no opening time or waiting room. The preview now lists every change of the file
 * that a save makes take effect, and the save applies them as the CLI would.
 */
describe('season editor: the preview lists prices, the opening time and the waiting room', () => {
  let w: EditorWorld;
  beforeAll(async () => {
    w = await editorWorld();
  });
  afterAll(async () => {
    await w.t.close();
  });

  it('lists a price change before saving, and writes nothing', async () => {
    const file = demoFile();
    const classic = file.packages.find((p) => p.priceCents === 3995)!;
    classic.priceCents = 4295;
    const before = await catalogueChecksum(w.t.db);
    const res = await w.call('POST', '/staff/season/preview', { payload: file });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ sessionsAdded: 0, sessionsRemoved: 0, sessionsChanged: 0, conflicts: [] });
    expect(res.json().changes).toEqual([
      {
        item: 'package',
        slug: classic.slug,
        name: classic.name,
        change: 'changed',
        field: 'priceCents',
        before: 3995,
        after: 4295,
      },
    ]);
    expect(await catalogueChecksum(w.t.db)).toBe(before);
  });

  it(
    "previews and saves an opening time in the location's zone with its waiting room; the next preview lists " +
      'nothing',
    async () => {
      const file = demoFile();
      const sydney = file.locations.find((l) => l.slug === SYDNEY)!;
      sydney.salesOpenAt = '2026-12-20T09:00';
      sydney.queue = { opensMinutesBefore: 45 };
      const preview = (await w.call('POST', '/staff/season/preview', { payload: file })).json();
      expect(preview.changes).toEqual([
        {
          item: 'location',
          slug: SYDNEY,
          name: sydney.name,
          change: 'changed',
          field: 'salesOpenAt',
          before: null,
          after: '2026-12-20T09:00',
        },
        { item: 'location', slug: SYDNEY, name: sydney.name, change: 'changed', field: 'queue', before: 0, after: 45 },
      ]);

      const live = await w.call('GET', '/staff/season');
      const saved = await w.call('PUT', '/staff/season', { payload: file, ifMatch: live.headers.etag as string });
      expect(saved.statusCode).toBe(200);
      // 09:00 AEDT is 22:00 UTC the day before; the line opens 45 minutes earlier.
      const row = (
        await w.t.db.execute(
          sql`select sales_open_at, queue_opens_minutes_before as m from locations where slug = ${SYDNEY}`,
        )
      ).rows[0]!;
      expect(new Date(row.sales_open_at as string).toISOString()).toBe('2026-12-19T22:00:00.000Z');
      expect(row.m).toBe(45);
      expect((await w.call('POST', '/staff/season/preview', { payload: file })).json().changes).toEqual([]);
    },
  );
});
