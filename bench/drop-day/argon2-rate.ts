import os from 'node:os';
import { verify } from '@node-rs/argon2';

/**
 * @node-rs/argon2's own rate on this machine: as many verifies as there are cores, back to back,
 * for `seconds`, with the API's stored-hash parameters (the hash carries them). No HTTP, no
 * database, no per-process cap: the ceiling a sign-in storm is weighed against (issue 21).
 */
export async function argon2RawRate(
  storedHash: string,
  password: string,
  seconds = 3,
): Promise<{ perSecond: number; concurrency: number }> {
  const concurrency = os.availableParallelism();
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        if (!(await verify(storedHash, password))) throw new Error('argon2 verify failed');
        done += 1;
      }
    }),
  );
  return { perSecond: (done * 1000) / (performance.now() - start), concurrency };
}
