import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/dev/embedded-postgres';
import pg from 'pg';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.resolve(API_DIR, '../../node_modules/.bin/tsx');

/**
 * Issue 36, probe case 8: after SIGKILL of the start, its PostgreSQL kept running and the next start refused "in use by
 * another start".
 */
describe('fault: a start killed with SIGKILL', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kringle-killed-start-'));
  // PostgreSQL runs as the `postgres` user when the tests run as root: it must be able to write here.
  fs.chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'postgres');
  let second: EmbeddedDatabase | null = null;
  afterAll(async () => {
    await second?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the next start stops the dead start's PostgreSQL and starts on the same data", async () => {
    const child = spawn(TSX, ['test/helpers/embedded-postgres-child.ts', dataDir], {
      cwd: API_DIR,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /ready (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`the first start exited (${code})`)));
    });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('create table survived (id int); insert into survived values (1)');
    await client.end();
    const orphan = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    // The process that started PostgreSQL (tsx runs the script in a node child of its own), then tsx.
    const owner = Number(fs.readFileSync(`${dataDir}.owner.pid`, 'utf8'));
    process.kill(owner, 'SIGKILL');
    child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 500));

    second = await startEmbeddedPostgres(dataDir);
    expect(() => process.kill(orphan, 0)).toThrow();
    const again = new pg.Client({ connectionString: second.url });
    await again.connect();
    expect((await again.query('select id from survived')).rows).toEqual([{ id: 1 }]);
    await again.end();
  }, 180_000);
});
