import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { errors } from '../../lib/errors';

/** One file of a multipart upload; `saveTo` writes it to a new file, and throws when it passes the size limit. */
export interface UploadedFile {
  mimetype: string;
  /** The name the file was sent with, to name it when it is rejected. */
  filename: string;
  saveTo(file: string): Promise<void>;
}

export const incomingDir = (dataDir: string) => path.join(dataDir, 'incoming');

/**
 * A file still there this long after it was last written belongs to an upload that ended without
 * its clean-up (the process died mid-request): a live one waits at most for its request's other
 * files to be processed, which is minutes.
 */
export const ABANDONED_AFTER_MS = 60 * 60_000;

/** Where a request's files wait for processing; each is deleted once processed, the rest when the request ends. */
export class Incoming {
  readonly files = new Set<string>();
  constructor(private readonly dir: string) {}

  async receive(file: UploadedFile): Promise<string> {
    if (file.mimetype !== 'image/jpeg') throw errors.onlyJpegPhotos();
    await mkdir(this.dir, { recursive: true });
    const at = path.join(this.dir, `${randomUUID()}.jpg`);
    this.files.add(at);
    await file.saveTo(at);
    return at;
  }

  async done(file: string): Promise<void> {
    this.files.delete(file);
    await rm(file, { force: true });
  }

  async clear(): Promise<void> {
    await Promise.all([...this.files].map((f) => this.done(f)));
  }
}

/**
 * Deletes what uploads cut short by a crash left in `dir` (files last written ABANDONED_AFTER_MS
 * ago or more, by the file system's clock). Safe with several processes sweeping at once.
 */
export async function sweepAbandoned(dir: string, nowMs = Date.now()): Promise<number> {
  const names = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  let deleted = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile() || nowMs - info.mtimeMs < ABANDONED_AFTER_MS) continue;
    await rm(file, { force: true });
    deleted++;
  }
  return deleted;
}
