import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { S3PhotoStorage, type S3Settings } from '../../src/modules/photos/photo-storage';

export interface S3rverProcess {
  /** A store on a new, empty bucket. */
  newBucket(options?: { listPageSize?: number }): Promise<{ storage: S3PhotoStorage; bucket: string }>;
  /** Sets an object's LastModified (s3rver answers its file's mtime). */
  age(bucket: string, key: string, at: Date): Promise<void>;
  stop(): Promise<void>;
}

/**
 * s3rver in a process of its own, with OpenSSL's legacy provider: it encrypts ListObjectsV2
 * continuation tokens with DES, which Node's OpenSSL 3 refuses otherwise (in the test's own
 * process any listing longer than one page is a 500).
 */
export async function startS3rverProcess(): Promise<S3rverProcess> {
  const dir = await mkdtemp(path.join(tmpdir(), 'photos-s3rver-'));
  const bin = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', bin, '-d', dir, '-a', '127.0.0.1', '-p', '0', '--silent'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const read = (d: Buffer) => {
      output += d.toString();
      const m = /S3rver listening on [\d.]+:(\d+)/.exec(output);
      if (m) resolve(Number(m[1]));
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(() => reject(new Error(`s3rver exited: ${output}`)));
  });
  const settings: S3Settings = {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'ap-southeast-2',
    bucket: '',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  };
  const admin = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const made: S3PhotoStorage[] = [];
  return {
    async newBucket(options) {
      const bucket = `photos-${randomBytes(4).toString('hex')}`;
      await admin.send(new CreateBucketCommand({ Bucket: bucket }));
      const storage = new S3PhotoStorage({ ...settings, bucket }, options);
      made.push(storage);
      return { storage, bucket };
    },
    async age(bucket, key, at) {
      await utimes(path.join(dir, bucket, path.dirname(key), `${path.basename(key)}._S3rver_object`), at, at);
    },
    async stop() {
      made.forEach((s) => s.destroy());
      admin.destroy();
      child.kill();
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
