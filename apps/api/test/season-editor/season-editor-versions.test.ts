import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueChecksum, demoFile, editorWorld, withSydneyHours, type EditorWorld } from './season-editor-fixtures';

/** Two managers editing at once cannot overwrite each other (If-Match, decision 0056). */
describe('season versions (issue 35)', () => {
  let w: EditorWorld;
  beforeAll(async () => {
    w = await editorWorld();
  });
  afterAll(async () => w?.t.close());

  it('needs the version edited: 428 without If-Match, nothing saved', async () => {
    const before = await catalogueChecksum(w.t.db);
    const res = await w.call('PUT', '/staff/season', { payload: withSydneyHours('10:00-16:30') });
    expect(res.statusCode).toBe(428);
    expect(res.json().code).toBe('SEASON_VERSION_REQUIRED');
    expect(await catalogueChecksum(w.t.db)).toBe(before);
  });

  it('refuses a stale If-Match with 412, nothing saved', async () => {
    const before = await catalogueChecksum(w.t.db);
    for (const ifMatch of ['"7"', '"0"']) {
      const res = await w.call('PUT', '/staff/season', { payload: withSydneyHours('10:00-16:30'), ifMatch });
      expect(res.statusCode).toBe(412);
      expect(res.json().code).toBe('SEASON_VERSION_STALE');
    }
    expect(await catalogueChecksum(w.t.db)).toBe(before);
  });

  it('lets exactly one of two saves of the same version win', async () => {
    const [a, b] = await Promise.all([
      w.call('PUT', '/staff/season', { payload: withSydneyHours('10:00-16:30'), ifMatch: '"1"' }),
      w.call('PUT', '/staff/season', { payload: withSydneyHours('10:00-18:00'), ifMatch: '"1"' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 412]);
    const winner = a.statusCode === 200 ? withSydneyHours('10:00-16:30') : withSydneyHours('10:00-18:00');
    const live = await w.call('GET', '/staff/season');
    expect(live.headers.etag).toBe('"2"');
    expect(live.json()).toEqual(winner);
    expect((await w.call('GET', '/staff/season/versions')).json().items).toHaveLength(2);
  });

  it('keeps one version when the same file is saved again', async () => {
    const live = await w.call('GET', '/staff/season');
    const res = await w.call('PUT', '/staff/season', { payload: live.json(), ifMatch: live.headers.etag as string });
    expect(res.json()).toEqual({ version: 2, sessionsAdded: 0, sessionsRemoved: 0, sessionsChanged: 0 });
    expect(demoFile()).not.toEqual(live.json());
  });
});
