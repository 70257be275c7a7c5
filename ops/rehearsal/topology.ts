import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * The docs/deploy.md shape, one network namespace per host, all on one bridge that lives in a
 * namespace of its own: nothing is added to the machine's own network, and no host has a route
 * out of the rehearsal's private subnet. The addresses are deploy.md's own examples; each run has
 * its own bridge, so two runs never see each other.
 */
export const HOSTS = {
  nginx: '10.0.0.10',
  api1: '10.0.0.11',
  api2: '10.0.0.12',
  /** Starts the app on the restored database (part c). */
  api3: '10.0.0.13',
  db: '10.0.0.20',
  /** The fresh PostgreSQL the backup is restored into. */
  db2: '10.0.0.21',
  stripe: '10.0.0.25',
  /** The families' phones and the operator's shell (pg_dump, audit:verify) run here. */
  load: '10.0.0.30',
} as const;
export type Host = keyof typeof HOSTS;

/** Each family on its own address of the load host, so per-address limits stay on as in production. */
export const FAMILY_ADDRESSES = 120;
export const familyAddress = (i: number) => `10.0.0.${100 + (i % FAMILY_ADDRESSES)}`;

/** Namespace names carry the pid of the run that made them, so a later run knows which are stale. */
const PREFIX = 'krh';
export const runPrefix = (pid: number) => `${PREFIX}${pid}`;
const nsOf = (prefix: string, host: Host | 'sw') => `${prefix}-${host}`;

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/** Can this process make namespaces? (root, and an iproute2 with `ip netns`.) */
export function namespacesUsable(): { ok: true } | { ok: false; why: string } {
  if (process.getuid?.() !== 0) return { ok: false, why: 'not running as root (network namespaces need it)' };
  const probe = `${PREFIX}probe${process.pid}`;
  try {
    ip('netns', 'add', probe);
    ip('netns', 'del', probe);
    return { ok: true };
  } catch (err) {
    return {
      ok: false,
      why: `\`ip netns add\` failed: ${(err as { stderr?: Buffer }).stderr?.toString().trim() ?? err}`,
    };
  }
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Ends every process left in a namespace (ours: nothing else runs in these), then deletes it. */
function deleteNamespace(ns: string): void {
  const pids = ip('netns', 'pids', ns).split('\n').filter(Boolean).map(Number);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  try {
    ip('netns', 'del', ns);
  } catch {
    // Deleted meanwhile.
  }
}

/** Namespaces of earlier runs whose process is gone (a crash, a kill -9): removed before this run. */
export function removeStaleNamespaces(): string[] {
  const stale = ip('netns', 'list')
    .split('\n')
    .map((line) => line.split(' ')[0]!)
    .filter((ns) => {
      const m = new RegExp(`^${PREFIX}(\\d+)-`).exec(ns);
      return m !== null && !isAlive(Number(m[1]));
    });
  stale.forEach(deleteNamespace);
  return stale;
}

export interface Topology {
  prefix: string;
  ns(host: Host): string;
  /** Spawns `cmd` inside `host`'s namespace (`ip netns exec` execs it: the pid is the command's own). */
  spawnIn(host: Host, cmd: string, args: string[], options?: SpawnOptions): ChildProcess;
  /** Runs `cmd` inside `host`'s namespace to completion and returns its stdout. */
  runIn(host: Host, cmd: string, args: string[], env?: NodeJS.ProcessEnv): string;
  destroy(): void;
}

/** Builds the namespaces, the bridge and one veth per host, with the host's address on its eth0. */
export function createTopology(prefix: string): Topology {
  const hosts = Object.keys(HOSTS) as Host[];
  const sw = nsOf(prefix, 'sw');
  const made: string[] = [];
  const destroy = () => made.reverse().forEach(deleteNamespace);
  try {
    ip('netns', 'add', sw);
    made.push(sw);
    ip('-n', sw, 'link', 'set', 'lo', 'up');
    ip('-n', sw, 'link', 'add', 'br0', 'type', 'bridge');
    ip('-n', sw, 'link', 'set', 'br0', 'up');
    for (const host of hosts) {
      const ns = nsOf(prefix, host);
      ip('netns', 'add', ns);
      made.push(ns);
      ip('-n', sw, 'link', 'add', `p-${host}`, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns);
      ip('-n', sw, 'link', 'set', `p-${host}`, 'master', 'br0', 'up');
      ip('-n', ns, 'addr', 'add', `${HOSTS[host]}/24`, 'dev', 'eth0');
      ip('-n', ns, 'link', 'set', 'eth0', 'up');
      ip('-n', ns, 'link', 'set', 'lo', 'up');
    }
    for (let i = 0; i < FAMILY_ADDRESSES; i++)
      ip('-n', nsOf(prefix, 'load'), 'addr', 'add', `${familyAddress(i)}/24`, 'dev', 'eth0');
  } catch (err) {
    destroy();
    throw err;
  }
  return topologyOf(prefix, destroy);
}

/** The same commands from inside a namespace (the scenario runs in the load host's). */
export function topologyOf(prefix: string, destroy: () => void = () => {}): Topology {
  const ns = (host: Host) => nsOf(prefix, host);
  return {
    prefix,
    ns,
    spawnIn: (host, cmd, args, options = {}) => spawn('ip', ['netns', 'exec', ns(host), cmd, ...args], options),
    runIn: (host, cmd, args, env) =>
      execFileSync('ip', ['netns', 'exec', ns(host), cmd, ...args], {
        env: env ?? process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 64 * 1024 * 1024,
      }).toString(),
    destroy,
  };
}
