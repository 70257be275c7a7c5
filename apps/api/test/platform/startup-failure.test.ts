import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseInUseError, startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/dev/embedded-postgres';
import { describeStartupFailure } from '../../src/lib/startup-failure';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.resolve(API_DIR, '../../node_modules/.bin/tsx');

describe('start-up failure messages', () => {
  it('never says "undefined": a rejection without an error still gets a sentence', () => {
    for (const nothing of [undefined, null]) {
      const text = describeStartupFailure(nothing);
      expect(text).toMatch(/^Kringle could not start: /);
      expect(text).not.toMatch(/undefined|null/);
    }
  });

  it('prints the whole cause chain, with error codes', () => {
    const root = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const text = describeStartupFailure(
      new Error('migrations failed', { cause: new Error('could not connect', { cause: root }) }),
    );
    expect(text).toContain('Kringle could not start: migrations failed');
    expect(text).toContain('because: could not connect');
    expect(text).toContain('because: connect ECONNREFUSED 127.0.0.1:5432');
    expect(text).toContain('DATABASE_URL');
  });

  it('says what to do when the port is taken, and lists the errors of an AggregateError', () => {
    const inUse = Object.assign(new Error('listen EADDRINUSE: address already in use 0.0.0.0:3000'), {
      code: 'EADDRINUSE',
      port: 3000,
    });
    expect(describeStartupFailure(inUse)).toMatch(/port 3000.*PORT=3001 npm start/s);
    const both = describeStartupFailure(new AggregateError([new Error('first'), new Error('second')], ''));
    expect(both).toContain('AggregateError');
    expect(both).toContain('because: first');
    expect(both).toContain('because: second');
  });
});

describe('two starts on one data folder', () => {
  let dir: string;
  let first: EmbeddedDatabase | null = null;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kringle-two-starts-'));
    // PostgreSQL runs as the `postgres` user when the tests run as root: it must be able to write here.
    fs.chmodSync(dir, 0o777);
    first = await startEmbeddedPostgres(path.join(dir, 'postgres'));
  }, 120_000);
  afterAll(async () => {
    await first?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses the second embedded server with the first one's pid and what to do", async () => {
    const second = startEmbeddedPostgres(path.join(dir, 'postgres'));
    await expect(second).rejects.toBeInstanceOf(DatabaseInUseError);
    const err = (await second.catch((e: unknown) => e)) as DatabaseInUseError;
    const pid = Number(fs.readFileSync(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    expect(err.pid).toBe(pid);
    expect(err.message).toContain(`PostgreSQL pid ${pid}`);
    expect(err.message).toContain('DATA_DIR');
    // The first server is untouched (its postmaster.pid is not removed as stale).
    expect(fs.existsSync(path.join(dir, 'postgres', 'postmaster.pid'))).toBe(true);
  });

  it('makes a second `npm start` (src/start.ts) on that folder exit with that message, not "undefined"', async () => {
    const child = spawn(TSX, ['src/start.ts'], {
      cwd: API_DIR,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        DATA_DIR: dir,
        PORT: '0',
        LOG_LEVEL: 'silent',
        DATABASE_URL: '',
        SMTP_URL: '',
        STRIPE_SECRET_KEY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, output).toBe(1);
    expect(output).toMatch(
      /Kringle could not start: the embedded database in .* is in use by another start \(PostgreSQL pid \d+\)/,
    );
    expect(output).toContain('DATA_DIR=');
    expect(output).not.toContain('undefined');
  }, 120_000);
});
