import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from '../../bench/drop-day/nginx-balancer';
import { API_NODE_FLAGS, REPO_ROOT } from '../../bench/drop-day/processes';
import { HOSTS, type Host, type Topology } from './topology';

/** A build of the API: the folder holding its package.json, dist/start.mjs and drizzle/. */
export interface Release {
  name: string;
  apiDir: string;
}

export const currentRelease = (): Release => ({ name: 'v1', apiDir: path.join(REPO_ROOT, 'apps/api') });

export const REHEARSAL_MIGRATION_SQL = [
  '-- Rehearsal only (ops/rehearsal), never in apps/api/drizzle: what a real release adds, a',
  '-- column on a busy table and a table, while the previous release keeps running beside it.',
  'ALTER TABLE "bookings" ADD COLUMN "rehearsal_note" text;',
  '--> statement-breakpoint',
  'CREATE TABLE "rehearsal_release" ("id" serial PRIMARY KEY NOT NULL, "note" text NOT NULL);',
  '--> statement-breakpoint',
  `INSERT INTO "rehearsal_release" ("note") VALUES ('v2');`,
  '',
].join('\n');

/**
 * The next release: today's build with one more migration, laid out as a deploy would unpack it
 * (apps/api with its package.json, dist and drizzle beside the installed node_modules, and the
 * ops file the API reads). The extra migration goes into this copy's drizzle folder and journal
 * only.
 */
export function releaseWithMigration(dir: string): Release {
  const root = path.join(dir, 'release-v2');
  const apiDir = path.join(root, 'apps/api');
  const from = currentRelease().apiDir;
  fs.mkdirSync(apiDir, { recursive: true });
  fs.copyFileSync(path.join(from, 'package.json'), path.join(apiDir, 'package.json'));
  fs.cpSync(path.join(from, 'dist'), path.join(apiDir, 'dist'), { recursive: true });
  fs.cpSync(path.join(from, 'drizzle'), path.join(apiDir, 'drizzle'), { recursive: true });
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  fs.symlinkSync(path.join(REPO_ROOT, 'apps/web'), path.join(root, 'apps/web'));
  // The payment pages' script inventory, which the API reads at start (decision 0098).
  fs.mkdirSync(path.join(root, 'ops'));
  fs.copyFileSync(
    path.join(REPO_ROOT, 'ops/payment-page-scripts.json'),
    path.join(root, 'ops/payment-page-scripts.json'),
  );
  const journalFile = path.join(apiDir, 'drizzle/meta/_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as {
    entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
  };
  const last = journal.entries.at(-1)!;
  const number = String(Number(last.tag.slice(0, 4)) + 1).padStart(4, '0');
  const tag = `${number}_rehearsal_release`;
  journal.entries.push({ idx: last.idx + 1, version: last.version, when: last.when + 100_000, tag, breakpoints: true });
  fs.writeFileSync(journalFile, JSON.stringify(journal, null, 2));
  fs.writeFileSync(path.join(apiDir, 'drizzle', `${tag}.sql`), REHEARSAL_MIGRATION_SQL);
  return { name: 'v2', apiDir };
}

export interface ApiProcess {
  host: Host;
  release: Release;
  url: string;
  /** A crash: SIGKILL, no shutdown. */
  kill(): Promise<void>;
  /** deploy.md's stop: SIGTERM, the process finishes its requests and exits. */
  stop(): Promise<void>;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });

/**
 * deploy.md's start line on `host`: node with the start script's flags, dist/start.mjs, PORT 3000 on the host's
 * address.
 */
export async function startApi(
  topo: Topology,
  host: Host,
  release: Release,
  env: Record<string, string>,
  logDir: string,
): Promise<ApiProcess> {
  const log = path.join(logDir, `${host}-${release.name}.log`);
  const fd = fs.openSync(log, 'a');
  const child = topo.spawnIn(host, process.execPath, [...API_NODE_FLAGS, 'dist/start.mjs'], {
    cwd: release.apiDir,
    env: { PATH: process.env.PATH, ...env, PORT: '3000', HOST: HOSTS[host], METRICS_HOST: HOSTS[host] },
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  const url = `http://${HOSTS[host]}:3000`;
  await waitFor(
    async () => {
      if (child.exitCode !== null)
        throw new Error(`API on ${host} exited with ${child.exitCode}:\n${fs.readFileSync(log, 'utf8').slice(-3000)}`);
      return (await fetch(`${url}/ready`).catch(() => null))?.ok === true;
    },
    120_000,
    `the API on ${host} (${release.name})`,
  );
  return {
    host,
    release,
    url,
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.kill('SIGTERM');
      await exited(child);
      clearTimeout(force);
    },
  };
}
