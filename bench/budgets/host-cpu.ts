import fs from 'node:fs';

/** What the host's CPUs did over a short window, as shares of their total time. */
export interface HostCpu {
  /** Busy (not idle, not waiting on disk): other programs, or this one. */
  busy: number;
  /** Taken by the hypervisor for other guests: contention we cannot see as a process. */
  steal: number;
}

/** The aggregate `cpu` line of /proc/stat: user nice system idle iowait irq softirq steal ... */
function cpuTicks(): number[] | null {
  try {
    return fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  } catch {
    return null; // not Linux
  }
}

/** Samples the host's CPUs over `ms`; null where /proc/stat does not exist. */
export async function sampleHostCpu(ms = 1000): Promise<HostCpu | null> {
  const done = hostCpuFromNow();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return done();
}

/** Starts a window: the function returned gives the host's CPUs over it (null without /proc/stat). */
export function hostCpuFromNow(): () => HostCpu | null {
  const before = cpuTicks();
  return () => {
    const after = cpuTicks();
    return before && after ? shares(before, after) : null;
  };
}

function shares(before: number[], after: number[]): HostCpu | null {
  const delta = after.map((value, i) => value - before[i]!);
  const total = delta.reduce((sum, value) => sum + value, 0);
  if (total <= 0) return null;
  const [, , , idle = 0, iowait = 0, , , steal = 0] = delta;
  return { busy: 1 - (idle + iowait) / total, steal: steal / total };
}

/**
 * Waits, up to `maxWaitMs`, for a second in which the host's CPUs were at most `maxBusy` busy,
 * and returns the last sample. Between Lighthouse runs our own processes are idle, so a busy
 * host is something else's work, which a simulated-throttling score would count as the page's.
 */
export async function waitForQuietHost({ maxBusy = 0.25, maxWaitMs = 20_000 } = {}): Promise<{
  sample: HostCpu | null;
  waitedMs: number;
}> {
  const started = Date.now();
  for (;;) {
    const sample = await sampleHostCpu();
    const waitedMs = Date.now() - started;
    if (!sample || sample.busy <= maxBusy || waitedMs >= maxWaitMs) return { sample, waitedMs };
  }
}
