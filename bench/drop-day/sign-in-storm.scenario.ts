import os from 'node:os';
import { hashPassword, verifyPassword } from '../../apps/api/src/modules/accounts/passwords';
import { argon2RawRate } from './argon2-rate';
import { runLoad, type LoadRequest } from './load-generator';
import type { Report } from './report';
import { SIGN_IN_PASSWORD, type BenchCustomer } from './seed-data';

/**
 * The read probe beside the storm is paced (probeRate reads/s in all, open loop: paced-load.ts): it asks how long a
 * family's
 * read waits while hashes run, so it must not itself take the cores the hashes would use (a probe
 * reading flat out took them at a higher priority and held the storm to a fifth of argon2's rate).
 */
export const SIGN_IN = { customers: 200, connections: 32, probeConnections: 10, probeRate: 1000 };

export type SignInStorm = Report['scenarios']['signIn'];

/**
 * Scenario 3: SIGN_IN.customers signing in at once through nginx (real argon2id verifies) with the
 * paced read probe alongside, weighed against @node-rs/argon2's own rate measured just before and
 * just after (argon2-rate.ts), and the same probe run alone first.
 */
export async function runSignInStormScenario(opts: {
  apiUrl: string;
  apiPids: number[];
  /** How many API processes share the hashing (each caps its own concurrent hashes). */
  apiProcesses: number;
  appCheck: string;
  customers: BenchCustomer[];
  reads: LoadRequest[];
  duration: number;
  warmUpPath: string;
  tmp: string;
  log: (msg: string) => void;
}): Promise<SignInStorm> {
  const { apiUrl, tmp } = opts;
  const verifyMs = await argon2VerifyMs();
  // The ceiling, measured in the same run just before and just after the storm (the host moves).
  const storedHash = await hashPassword(SIGN_IN_PASSWORD);
  const rawBefore = await argon2RawRate(storedHash, SIGN_IN_PASSWORD);
  const signInRequests: LoadRequest[] = opts.customers.map((c) => ({
    method: 'POST',
    path: '/api/v1/auth/sign-in',
    headers: { 'x-app-check': opts.appCheck },
    body: JSON.stringify({ email: c.email, password: SIGN_IN_PASSWORD }),
  }));
  // The same probe without the storm, just before it: what the storm adds to the reads' p99.
  const probe = {
    url: apiUrl,
    connections: SIGN_IN.probeConnections,
    overallRate: SIGN_IN.probeRate,
    duration: opts.duration,
    requests: opts.reads,
    warmUpPath: opts.warmUpPath,
  };
  const readsAlone = await runLoad({ ...probe, cpuPids: opts.apiPids }, tmp);
  // The API processes' own CPU time (hash threads included) and the host's CPUs, both over the
  // storm's measured run (after its warm-up, as the other figures).
  const [storm, readsDuringStorm] = await Promise.all([
    runLoad(
      {
        url: apiUrl,
        connections: SIGN_IN.connections,
        duration: opts.duration,
        requests: signInRequests,
        warmUpPath: opts.warmUpPath,
        cpuPids: opts.apiPids,
      },
      tmp,
    ),
    runLoad(probe, tmp),
  ]);
  const hostBusyDuringStorm = storm.hostBusy ?? null;
  // The storm's run was charged with the probe's reads too: those cost what they cost alone.
  const apiCpuMsPerSignIn =
    (storm.serverCpuMicrosPerRequest! * storm.total - readsAlone.serverCpuMicrosPerRequest! * readsDuringStorm.total) /
    storm.total /
    1000;
  // Mirrors apps/api/src/modules/accounts/passwords.ts: at most 3 hashes at once per process, one core left free.
  const perProcess = Math.max(1, Math.min(3, os.availableParallelism() - 1));
  const boundPerSecond = Math.min(os.availableParallelism(), perProcess * opts.apiProcesses) * (1000 / verifyMs);
  const rawAfter = await argon2RawRate(storedHash, SIGN_IN_PASSWORD);
  const argon2RawPerSecond = (rawBefore.perSecond + rawAfter.perSecond) / 2;
  opts.log(
    `  sign-in: ${Math.round(storm.requestsPerSecond)}/s; @node-rs/argon2 alone, ` +
      `${rawBefore.concurrency} at once: ${Math.round(rawBefore.perSecond)}/s before, ` +
      (`${Math.round(rawAfter.perSecond)}/s after (storm ` +
        `${((storm.requestsPerSecond / argon2RawPerSecond) * 100).toFixed(1)}% of their `) +
      `mean); reads meanwhile p99 ` +
      `${readsDuringStorm.latencyMs.p99} ms (${readsAlone.latencyMs.p99} ms without the storm just before)`,
  );
  opts.log(
    `  API CPU per sign-in ` +
      `${apiCpuMsPerSignIn.toFixed(1)} ms (one verify alone ` +
      `${verifyMs.toFixed(1)} ms); host CPUs busy ` +
      `${hostBusyDuringStorm === null ? 'unknown' : `${(hostBusyDuringStorm * 100).toFixed(0)}%`} during the storm`,
  );
  return {
    storm,
    readsDuringStorm,
    readsAlone,
    argon2VerifyMs: verifyMs,
    concurrentHashesPerProcess: perProcess,
    boundPerSecond,
    argon2RawPerSecond: { before: rawBefore.perSecond, after: rawAfter.perSecond, concurrency: rawBefore.concurrency },
    apiCpuMsPerSignIn,
    hostBusyDuringStorm,
  };
}

/** One argon2id verify with the API's own parameters, timed in this process (median of 5). */
async function argon2VerifyMs(): Promise<number> {
  const stored = await hashPassword(SIGN_IN_PASSWORD);
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    await verifyPassword(stored, SIGN_IN_PASSWORD);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[2]!;
}
