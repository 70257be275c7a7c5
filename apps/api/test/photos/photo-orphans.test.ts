import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photos } from '../../src/db/schema/photos';
import { photoRetentionJob, ORPHAN_SWEEP_EVERY_MS } from '../../src/jobs/photo-retention.job';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { ORPHANED_AFTER_MS, sweepOrphanedPhotoFiles } from '../../src/modules/photos/photo-orphans.service';
import {
  LocalPhotoStorage,
  photoKey,
  photoStorageFor,
  type PhotoStorage,
} from '../../src/modules/photos/photo-storage';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { startS3rverProcess, type S3rverProcess } from './s3rver-process';

/** A photo store as a test sees it: what the app sees, plus the files beside it. */
interface Store {
  storage: PhotoStorage;
  /** Writes a file that is not a photo where the photos are. */
  putOther(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  age(key: string, at: Date): Promise<void>;
}

function localStore(root: string): Store {
  const file = (key: string) => path.join(root, key);
  return {
    storage: new LocalPhotoStorage(root, () => new Date()),
    async putOther(key) {
      await mkdir(path.dirname(file(key)), { recursive: true });
      await writeFile(file(key), 'x');
    },
    exists: (key) =>
      stat(file(key)).then(
        () => true,
        () => false,
      ),
    age: (key, at) => utimes(file(key), at, at),
  };
}

async function s3Store(s3: S3rverProcess): Promise<Store> {
  // Two keys a page: every listing here runs over several pages.
  const { storage, bucket } = await s3.newBucket({ listPageSize: 2 });
  return {
    storage,
    putOther: (key) => storage.put(key, Buffer.from('x'), 'text/plain'),
    async exists(key) {
      const body = await storage.get(key);
      body?.destroy();
      return body !== null;
    },
    age: (key, at) => s3.age(bucket, key, at),
  };
}

const OLD = () => new Date(Date.now() - ORPHANED_AFTER_MS - 5 * 60_000);
const keysOf = (id: string) => [photoKey(id, 'original'), photoKey(id, 'preview')];

describe('photo files no row points at (decision 0075)', () => {
  let t: TestApp;
  let locationId: string;
  let dataDir: string;
  let s3: S3rverProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'photo-orphans-'));
    t = await createTestApp({ DATA_DIR: dataDir });
    await loadSeason(t.db, demoSeason(t.clock.now(), { days: 1 }), t.clock.now());
    locationId = (await t.db.execute(sql`select id from locations limit 1`)).rows[0]!.id as string;
    s3 = await startS3rverProcess();
  });
  afterAll(async () => {
    await t?.close();
    await s3?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A photo's two files, last written at `at`; with its row when `withRow`. */
  async function photo(store: Store, at: Date, withRow = false): Promise<string> {
    const id = randomUUID();
    for (const key of keysOf(id)) {
      await store.storage.put(key, Buffer.from('jpeg'), 'image/jpeg');
      await store.age(key, at);
    }
    if (withRow) await t.db.insert(photos).values({ id, locationId, width: 1, height: 1 });
    return id;
  }
  const present = async (store: Store, ids: string[]) =>
    (await Promise.all(ids.flatMap(keysOf).map((k) => store.exists(k)))).every(Boolean);
  const gone = async (store: Store, ids: string[]) =>
    !(await Promise.all(ids.flatMap(keysOf).map((k) => store.exists(k)))).some(Boolean);
  const sweep = (store: Store, batchSize?: number) => sweepOrphanedPhotoFiles(t.app, store.storage, { batchSize });

  describe.each([
    { name: 'local folder', make: async () => localStore(await mkdtemp(path.join(dataDir, 'store-'))) },
    { name: 'S3 (s3rver)', make: () => s3Store(s3) },
  ])('$name', ({ make }) => {
    it('lists every photo file and nothing else', async () => {
      const store = await make();
      const ids = [await photo(store, new Date()), await photo(store, OLD()), await photo(store, new Date())];
      await store.putOther('photos/readme.txt');
      await store.putOther(`photos/${ids[0]}/original.jpg.0a1b2c3d.part`);
      await store.putOther('elsewhere.jpg');
      const listed: string[] = [];
      for await (const f of store.storage.list()) listed.push(f.key);
      expect(listed.sort()).toEqual(ids.flatMap(keysOf).sort());
    });

    it('deletes the files of a photo with no row once older than the grace period', async () => {
      const store = await make();
      const orphan = await photo(store, OLD());
      expect(await sweep(store)).toEqual({ listed: 2, deleted: 2 });
      expect(await gone(store, [orphan])).toBe(true);
    });

    it('leaves an orphan younger than the grace period: an upload still writing its rows', async () => {
      const store = await make();
      const inFlight = await photo(store, new Date(Date.now() - ORPHANED_AFTER_MS + 5 * 60_000));
      expect(await sweep(store)).toEqual({ listed: 2, deleted: 0 });
      expect(await present(store, [inFlight])).toBe(true);
    });

    it('leaves the files of a photo with its row, however old', async () => {
      const store = await make();
      const kept = await photo(store, new Date('2025-01-01T00:00:00Z'), true);
      expect((await sweep(store)).deleted).toBe(0);
      expect(await present(store, [kept])).toBe(true);
    });

    it('leaves what is not a photo file, however old', async () => {
      const store = await make();
      const others = [
        'photos/readme.txt',
        `photos/${randomUUID()}/original.jpg.0a1b2c3d.part`,
        `photos/${randomUUID()}/notes.jpg`,
      ];
      for (const key of others) {
        await store.putOther(key);
        await store.age(key, new Date('2025-01-01T00:00:00Z'));
      }
      expect(await sweep(store)).toEqual({ listed: 0, deleted: 0 });
      for (const key of others) expect(await store.exists(key)).toBe(true);
    });

    it(
      'checks ids a batch at a time: orphans, kept photos and the leftovers of deleted rows over several ' + 'batches',
      async () => {
        const store = await make();
        const kept = [
          await photo(store, OLD(), true),
          await photo(store, OLD(), true),
          await photo(store, OLD(), true),
        ];
        const orphans = [await photo(store, OLD()), await photo(store, OLD()), await photo(store, OLD())];
        // A row deleted without its files (a purge that failed halfway): the sweep finishes it.
        const deletedRow = await photo(store, OLD(), true);
        await t.db.execute(sql`delete from photos where id = ${deletedRow}::uuid`);
        const young = await photo(store, new Date());
        expect(await sweep(store, 2)).toEqual({ listed: 16, deleted: 8 });
        expect(await gone(store, [...orphans, deletedRow])).toBe(true);
        expect(await present(store, [...kept, young])).toBe(true);
      },
    );
  });

  it('the photo job sweeps at most once every 6 hours in a process, and the first time at once', async () => {
    const store = { ...localStore(path.join(dataDir, 'photos')), storage: photoStorageFor(t.app) };
    const job = photoRetentionJob(t.app);
    const first = await photo(store, OLD());
    await job.run();
    expect(await gone(store, [first])).toBe(true);

    const second = await photo(store, OLD());
    t.clock.advance(ORPHAN_SWEEP_EVERY_MS - 60_000);
    await job.run();
    expect(await present(store, [second])).toBe(true);
    t.clock.advance(60_000);
    await job.run();
    expect(await gone(store, [second])).toBe(true);
  });
});
