import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ABANDONED_AFTER_MS, sweepAbandoned } from '../../src/modules/photos/incoming';

/** Issue 39's leftover: a crash mid-upload leaves files in DATA_DIR/incoming; the photo job sweeps them. */
describe('files of interrupted uploads', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('deletes only files older than an upload can wait, and nothing when there is no folder', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kringle-incoming-'));
    dirs.push(dir);
    const now = Date.now();
    const old = new Date(now - ABANDONED_AFTER_MS - 60_000);
    await writeFile(path.join(dir, 'abandoned.jpg'), 'x');
    await utimes(path.join(dir, 'abandoned.jpg'), old, old);
    await writeFile(path.join(dir, 'waiting.jpg'), 'x');
    await utimes(
      path.join(dir, 'waiting.jpg'),
      new Date(now - ABANDONED_AFTER_MS + 60_000),
      new Date(now - ABANDONED_AFTER_MS + 60_000),
    );
    await mkdir(path.join(dir, 'a-folder'));
    await utimes(path.join(dir, 'a-folder'), old, old);

    expect(await sweepAbandoned(dir, now)).toBe(1);
    expect((await readdir(dir)).sort()).toEqual(['a-folder', 'waiting.jpg']);
    expect(await sweepAbandoned(dir, now)).toBe(0);
    expect(await sweepAbandoned(path.join(dir, 'missing'), now)).toBe(0);
  });
});
