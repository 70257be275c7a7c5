import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../bench/drop-day/processes';
import { createTopology, isAlive, namespacesUsable, removeStaleNamespaces, runPrefix, type Topology } from './topology';

/**
 * `npm run rehearsal`: the production rehearsal (decision 0096). Makes the network (one namespace
 * per host, docs/deploy.md's shape), runs scenario.ts inside the load host, and removes the network
 * and every process in it afterwards, also when the scenario crashes or this process is stopped.
 */
const LIMIT_MS = 10 * 60_000;

function main(): void {
  const usable = namespacesUsable();
  if (!usable.ok) {
    const message = `production rehearsal skipped: ${usable.why}. It needs root and \`ip netns\` (Debian's iproute2).`;
    if (process.env.CI === 'true') {
      console.error(`${message}\nCI=true: a CI machine must run it.`);
      process.exit(1);
    }
    console.log(message);
    return;
  }
  const stale = removeStaleNamespaces();
  if (stale.length) console.log(`Removed ${stale.length} namespaces a crashed run left: ${stale.join(', ')}`);
  for (const name of fs.readdirSync(os.tmpdir())) {
    const pid = /^krh(\d+)-/.exec(name)?.[1];
    if (pid && !isAlive(Number(pid))) fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }

  // The release under test is the tree as it is: build it (esbuild, seconds) as a deploy would.
  execFileSync('npm', ['run', '--silent', 'build', '-w', 'apps/api'], { cwd: REPO_ROOT, stdio: 'inherit' });

  const prefix = runPrefix(process.pid);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  // PostgreSQL runs as `postgres` and must reach its folders below this one.
  fs.chmodSync(dir, 0o755);
  let topo: Topology | null = null;
  let cleaned = false;
  const cleanUp = (keepLogs: boolean) => {
    if (cleaned) return;
    cleaned = true;
    topo?.destroy();
    if (keepLogs) console.log(`Logs kept in ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      cleanUp(true);
      process.exit(130);
    });
  process.once('exit', () => cleanUp(true));

  topo = createTopology(prefix);
  const scenario = topo.spawnIn(
    'load',
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'ops/rehearsal/scenario.ts')],
    { cwd: REPO_ROOT, env: { ...process.env, REHEARSAL_PREFIX: prefix, REHEARSAL_DIR: dir }, stdio: 'inherit' },
  );
  const limit = setTimeout(() => {
    console.error(`rehearsal: no end after ${LIMIT_MS / 60_000} minutes, stopped`);
    console.log('rehearsal: 0 passed, 1 failed');
    scenario.kill('SIGKILL');
  }, LIMIT_MS);
  scenario.once('exit', (code, signal) => {
    clearTimeout(limit);
    const ok = code === 0;
    cleanUp(!ok);
    process.exitCode = ok ? 0 : 1;
    if (signal) console.error(`rehearsal scenario ended by ${signal}`);
  });
}

main();
