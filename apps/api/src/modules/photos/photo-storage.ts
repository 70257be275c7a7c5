import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, opendir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../../config/config';

/** No link to a photo lives longer than this (issue 39: presigned URLs at most 15 minutes). */
export const MAX_SIGNED_SECONDS = 900;

/**
 * Where photo files live: the data folder on the embedded default, any S3-compatible store in
 * production. Keys are `photos/<photoId>/<variant>.jpg`; nothing else is stored.
 */
export interface PhotoStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The file, or null when it is gone. */
  get(key: string): Promise<Readable | null>;
  /** Harmless when the file is already gone. */
  delete(key: string): Promise<void>;
  /** A URL that answers the file for `seconds` (capped at 15 minutes), then never again. */
  signedUrl(key: string, seconds: number): Promise<string>;
  /**
   * Every photo file stored, read a page at a time so a large store is never held in memory;
   * keys that are not photo keys are left out. Deleting what was already listed is safe meanwhile.
   */
  list(): AsyncIterable<StoredPhotoFile>;
}

export interface StoredPhotoFile {
  key: string;
  lastModified: Date;
}

// A UUID exactly as randomUUID writes it: the id goes to the database as a uuid.
const KEY_PATTERN = /^photos\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/(original|preview)\.jpg$/;

export function photoKey(photoId: string, variant: 'original' | 'preview'): string {
  return `photos/${photoId}/${variant}.jpg`;
}

/** The photo a key belongs to, or null for anything that is not a photo key (never a path outside the folder). */
export function photoIdOfKey(key: string): string | null {
  return KEY_PATTERN.test(key) ? key.split('/')[1]! : null;
}

/** A file or folder deleted while the store is read (by a delete, another process): nothing to list. */
function orNullIfGone(e: NodeJS.ErrnoException): null {
  if (e.code === 'ENOENT') return null;
  throw e;
}

const capped = (seconds: number) => Math.max(1, Math.min(MAX_SIGNED_SECONDS, Math.floor(seconds)));

/**
 * Files under `DATA_DIR/photos`. Its signed URLs are app URLs (`/api/v1/photo-files/<key>`) with
 * an expiry and an HMAC over key and expiry; the route checks both and that the photo still has
 * its row, so a deleted photo's links die with it.
 */
export class LocalPhotoStorage implements PhotoStorage {
  private keyPromise: Promise<Buffer> | null = null;

  constructor(
    private readonly root: string,
    private readonly now: () => Date,
    private readonly urlBase = '/api/v1/photo-files/',
  ) {}

  private file(key: string): string {
    if (!photoIdOfKey(key)) throw new Error(`not a photo key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Written beside and renamed: a reader never sees half a file, a crash leaves only a .part.
    const part = `${file}.${randomBytes(4).toString('hex')}.part`;
    await writeFile(part, body);
    await rename(part, file);
  }

  async get(key: string): Promise<Readable | null> {
    const file = this.file(key);
    try {
      await stat(file);
    } catch {
      return null;
    }
    return createReadStream(file);
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
    await rm(path.dirname(this.file(key)), { recursive: false, force: true }).catch(() => undefined);
  }

  async *list(): AsyncIterable<StoredPhotoFile> {
    const folder = path.join(this.root, 'photos');
    const photoDirs = await opendir(folder).catch(orNullIfGone);
    if (!photoDirs) return;
    // The folder of all photos is streamed (a directory each); one photo's directory holds two files.
    for await (const entry of photoDirs) {
      if (!entry.isDirectory()) continue;
      for (const name of (await readdir(path.join(folder, entry.name)).catch(orNullIfGone)) ?? []) {
        const key = `photos/${entry.name}/${name}`;
        if (!photoIdOfKey(key)) continue;
        const info = await stat(path.join(folder, entry.name, name)).catch(orNullIfGone);
        if (info?.isFile()) yield { key, lastModified: info.mtime };
      }
    }
  }

  async signedUrl(key: string, seconds: number): Promise<string> {
    const expires = Math.floor(this.now().getTime() / 1000) + capped(seconds);
    const sig = await this.sign(key, expires);
    return `${this.urlBase}${key}?expires=${expires}&sig=${sig}`;
  }

  /** True when the signature is ours and the URL has not expired. */
  async verify(key: string, expires: number, sig: string): Promise<boolean> {
    if (!Number.isSafeInteger(expires) || expires * 1000 <= this.now().getTime()) return false;
    const expected = Buffer.from(await this.sign(key, expires));
    const given = Buffer.from(sig);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async sign(key: string, expires: number): Promise<string> {
    return createHmac('sha256', await this.secret())
      .update(`${key}\n${expires}`)
      .digest('base64url');
  }

  /**
   * The signing key lives in the folder it protects, made once with an exclusive create so every
   * process sharing the folder signs with the same key.
   */
  private secret(): Promise<Buffer> {
    this.keyPromise ??= (async () => {
      const file = path.join(this.root, '.url-signing-key');
      await mkdir(this.root, { recursive: true });
      await writeFile(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 }).catch(
        (e: NodeJS.ErrnoException) => {
          if (e.code !== 'EEXIST') throw e;
        },
      );
      return Buffer.from((await readFile(file, 'utf8')).trim(), 'hex');
    })();
    return this.keyPromise;
  }
}

export interface S3Settings {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** Any S3-compatible store through the official SDK; the bucket stays private, reads are presigned. */
export class S3PhotoStorage implements PhotoStorage {
  private readonly client: S3Client;

  constructor(
    private readonly s: S3Settings,
    /** Keys a ListObjectsV2 page asks for (S3's own maximum is 1000). */
    private readonly options: { listPageSize?: number } = {},
  ) {
    // Path-style: MinIO, s3rver and most S3-compatible stores do not serve bucket subdomains.
    this.client = new S3Client({
      endpoint: s.endpoint,
      region: s.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.s.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  async get(key: string): Promise<Readable | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.s.bucket, Key: key }));
      return out.Body as Readable;
    } catch (e) {
      if (
        (e as { name?: string }).name === 'NoSuchKey' ||
        (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
      )
        return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.s.bucket, Key: key }));
  }

  async *list(): AsyncIterable<StoredPhotoFile> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.s.bucket,
          Prefix: 'photos/',
          MaxKeys: this.options.listPageSize ?? 1000,
          ContinuationToken: token,
        }),
      );
      for (const o of page.Contents ?? [])
        if (o.Key && o.LastModified && photoIdOfKey(o.Key)) yield { key: o.Key, lastModified: o.LastModified };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async signedUrl(key: string, seconds: number): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.s.bucket, Key: key }), {
      expiresIn: capped(seconds),
    });
  }

  destroy(): void {
    this.client.destroy();
  }
}

export function photoStorageOf(
  config: Pick<
    Config,
    | 'PHOTO_STORAGE'
    | 'DATA_DIR'
    | 'S3_ENDPOINT'
    | 'S3_REGION'
    | 'S3_BUCKET'
    | 'S3_ACCESS_KEY_ID'
    | 'S3_SECRET_ACCESS_KEY'
  >,
  now: () => Date,
): PhotoStorage {
  if (config.PHOTO_STORAGE === 's3') {
    // loadConfig refuses s3 without all five, so these are present.
    return new S3PhotoStorage({
      endpoint: config.S3_ENDPOINT!,
      region: config.S3_REGION!,
      bucket: config.S3_BUCKET!,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
    });
  }
  return new LocalPhotoStorage(path.join(config.DATA_DIR, 'photos'), now);
}

const perConfig = new WeakMap<object, PhotoStorage>();

/** One store per app (its config), made on first use: the routes and the retention job share it. */
export function photoStorageFor(deps: { config: Config; clock: { now(): Date } }): PhotoStorage {
  let storage = perConfig.get(deps.config);
  if (!storage) {
    storage = photoStorageOf(deps.config, () => deps.clock.now());
    perConfig.set(deps.config, storage);
  }
  return storage;
}
