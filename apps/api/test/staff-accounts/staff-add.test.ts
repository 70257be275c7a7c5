import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/accounts';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { awaitMails } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/test-app';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.resolve(API_DIR, '../../node_modules/.bin/tsx');
const run = promisify(execFile);

/** `npm run staff:add` (decision 0050): the first manager of a real deployment, with an invitation link. */
describe('staff:add', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await loadSeason(t.db, demoSeason(t.clock.now(), { days: 2 }), t.clock.now());
  });
  afterAll(async () => t?.close());

  const staffAdd = (...args: string[]) =>
    run(TSX, ['src/cli/staff-add.ts', ...args], {
      cwd: API_DIR,
      env: {
        ...process.env,
        DATABASE_URL: t.databaseUrl,
        MIGRATION_DATABASE_URL: t.ownerUrl,
        PUBLIC_URL: 'https://book.example.com',
        LOG_LEVEL: 'silent',
      },
    });

  it('makes the account with its role and locations, queues the invitation and prints its link', async () => {
    const { stdout } = await staffAdd(
      '--email',
      'Boss@Example.com',
      '--role',
      'manager',
      '--location',
      'sydney-pitt-street',
    );
    expect(stdout).toMatch(/boss@example\.com \(manager, sydney-pitt-street\) invited/);
    const link = /https:\/\/book\.example\.com\/staff\/invite\?code=[\w-]+/.exec(stdout)![0];
    const [row] = await t.db.select().from(users).where(eq(users.email, 'boss@example.com'));
    const sydney = (await t.db.execute(sql`select id from locations where slug = 'sydney-pitt-street'`)).rows[0]!.id;
    expect(row).toMatchObject({ isStaff: true, staffRole: 'manager', locationIds: [sydney], active: true });
    expect((await awaitMails(t.db, 'boss@example.com'))[0]!.text).toContain(link);
  });

  it('refuses a bad role or an unknown location, and makes nothing', async () => {
    await expect(staffAdd('--email', 'x@example.com', '--role', 'boss')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Usage: npm run staff:add'),
    });
    await expect(staffAdd('--email', 'x@example.com', '--role', 'set', '--location', 'atlantis')).rejects.toMatchObject(
      { code: 1, stderr: expect.stringContaining('Unknown location: atlantis') },
    );
    expect(await t.db.select().from(users).where(eq(users.email, 'x@example.com'))).toEqual([]);
  });
});
