import type { FastifyInstance } from 'fastify';
import { photoIdOfKey, type PhotoStorage } from './photo-storage';
import { existingPhotoIds } from './photos.repository';

type Deps = Pick<FastifyInstance, 'db' | 'log'>;

/**
 * A photo file with no row is left alone until it is this old. An upload stores its files before
 * it writes their rows: its body arrives within REQUEST_TIMEOUT_MS (30 s) and the files still
 * waiting are processed within minutes even on a loaded host (decision 0070). An hour is far past
 * any upload in flight, and past any skew between our clock and the store's (decision 0075).
 */
export const ORPHANED_AFTER_MS = 60 * 60_000;

/**
 * Deletes photo files whose photo has no row, once older than ORPHANED_AFTER_MS: the files of an
 * upload whose process died before its rows were written (or whose clean-up failed), and any left
 * behind a deleted row. Ids are checked `batchSize` at a time. Safe with several processes at once.
 */
export async function sweepOrphanedPhotoFiles(
  deps: Deps,
  storage: PhotoStorage,
  { nowMs = Date.now(), batchSize = 500 }: { nowMs?: number; batchSize?: number } = {},
): Promise<{ listed: number; deleted: number }> {
  let listed = 0;
  let deleted = 0;
  let batch = new Map<string, string[]>();
  const settle = async () => {
    const kept = await existingPhotoIds(deps.db, [...batch.keys()]);
    for (const [id, keys] of batch) {
      if (kept.has(id)) continue;
      for (const key of keys) {
        // One file that will not go must not keep the rest.
        await storage.delete(key).then(
          () => deleted++,
          (err: unknown) => deps.log.warn({ err, key }, 'could not delete an orphaned photo file'),
        );
      }
    }
    batch = new Map();
  };
  for await (const file of storage.list()) {
    listed++;
    const id = photoIdOfKey(file.key);
    if (!id || nowMs - file.lastModified.getTime() < ORPHANED_AFTER_MS) continue;
    batch.set(id, [...(batch.get(id) ?? []), file.key]);
    if (batch.size >= batchSize) await settle();
  }
  if (batch.size) await settle();
  return { listed, deleted };
}
