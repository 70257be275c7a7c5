import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalPhotoStorage, photoIdOfKey, photoKey, S3PhotoStorage, type PhotoStorage } from './photo-storage';

const ID = '0b6c1c1e-6a0c-4d55-9a39-5b0d3e1c8f11';
const KEY = photoKey(ID, 'original');

async function text(stream: Readable | null): Promise<string | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}

async function roundTrip(storage: PhotoStorage) {
  await storage.put(KEY, Buffer.from('jpeg bytes'), 'image/jpeg');
  expect(await text(await storage.get(KEY))).toBe('jpeg bytes');
  await storage.delete(KEY);
  expect(await storage.get(KEY)).toBeNull();
  await storage.delete(KEY); // harmless twice
}

async function listed(storage: PhotoStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const f of storage.list()) {
    expect(Math.abs(f.lastModified.getTime() - Date.now())).toBeLessThan(60_000);
    keys.push(f.key);
  }
  return keys.sort();
}

const IDS = [
  '1d2e3f40-0000-4000-8000-000000000001',
  '1d2e3f40-0000-4000-8000-000000000002',
  '1d2e3f40-0000-4000-8000-000000000003',
];
const PHOTO_KEYS = IDS.flatMap((id) => [photoKey(id, 'original'), photoKey(id, 'preview')]).sort();

describe('photo keys', () => {
  it('names only photo files: no path outside the folder', () => {
    expect(photoIdOfKey(KEY)).toBe(ID);
    expect(photoIdOfKey(`photos/${ID}/../../etc.jpg`)).toBeNull();
    expect(photoIdOfKey('.url-signing-key')).toBeNull();
    // The id goes to the database as a uuid: only randomUUID's own form is a photo key.
    expect(photoIdOfKey(`photos/${'-'.repeat(36)}/original.jpg`)).toBeNull();
    expect(photoIdOfKey(photoKey(ID.toUpperCase(), 'original'))).toBeNull();
  });
});

describe('LocalPhotoStorage', () => {
  let dir: string;
  let now = new Date('2026-12-01T00:00:00Z');
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'photos-local-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('puts, reads and deletes a file', () => roundTrip(new LocalPhotoStorage(dir, () => now)));

  it('signs URLs that expire, at most 15 minutes ahead, with one key for every process', async () => {
    const a = new LocalPhotoStorage(dir, () => now);
    const b = new LocalPhotoStorage(dir, () => now); // a second process on the same folder
    const url = new URL(await a.signedUrl(KEY, 3600), 'http://x');
    expect(url.pathname).toBe(`/api/v1/photo-files/${KEY}`);
    const expires = Number(url.searchParams.get('expires'));
    expect(expires).toBe(now.getTime() / 1000 + 900);
    const sig = url.searchParams.get('sig')!;
    expect(await b.verify(KEY, expires, sig)).toBe(true);
    expect(await b.verify(photoKey(ID, 'preview'), expires, sig)).toBe(false);
    expect(await b.verify(KEY, expires + 1, sig)).toBe(false);
    now = new Date(now.getTime() + 901_000);
    expect(await b.verify(KEY, expires, sig)).toBe(false);
  });

  it('lists the photo files with their times and nothing else in the folder', async () => {
    const root = await mkdtemp(path.join(dir, 'list-'));
    const storage = new LocalPhotoStorage(root, () => now);
    expect(await listed(storage)).toEqual([]); // no folder yet
    for (const key of PHOTO_KEYS) await storage.put(key, Buffer.from('x'));
    await storage.signedUrl(KEY, 60); // the signing key, at the root
    await writeFile(path.join(root, 'photos', 'notes.txt'), 'x');
    await writeFile(path.join(root, 'photos', IDS[0]!, 'original.jpg.0a1b2c3d.part'), 'x');
    await mkdir(path.join(root, 'photos', IDS[1]!, 'nested'));
    await mkdir(path.join(root, 'photos', 'not-a-photo'));
    await writeFile(path.join(root, 'photos', 'not-a-photo', 'original.jpg'), 'x');
    expect(await listed(storage)).toEqual(PHOTO_KEYS);
  });
});

describe('S3PhotoStorage against s3rver', () => {
  let dir: string;
  let server: S3rver;
  let storage: S3PhotoStorage;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'photos-s3-'));
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'kringle-photos', configs: [] }],
    });
    const address = await server.run();
    storage = new S3PhotoStorage({
      endpoint: `http://127.0.0.1:${address.port}`,
      region: 'ap-southeast-2',
      bucket: 'kringle-photos',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
  });
  afterAll(async () => {
    storage?.destroy();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('puts, reads and deletes an object', () => roundTrip(storage));

  it('presigns GET URLs of at most 15 minutes that stop answering once the object is deleted', async () => {
    await storage.put(KEY, Buffer.from('signed'), 'image/jpeg');
    const url = new URL(await storage.signedUrl(KEY, 3600));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('signed');
    await storage.delete(KEY);
    expect((await fetch(url)).status).toBe(404);
  });
});
