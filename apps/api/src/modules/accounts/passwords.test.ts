import os from 'node:os';
import { parseOptions } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { hashPassword, hashWorkers, verifyAgainstDummy, verifyPassword } from './passwords';

describe('passwords', () => {
  it('hashes with argon2id, m=19 MiB, t=2, p=1, and verifies', async () => {
    const hash = await hashPassword('Sleigh-Bells-Ring-42');
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(parseOptions(hash)).toMatchObject({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(await verifyPassword(hash, 'Sleigh-Bells-Ring-42')).toBe(true);
    expect(await verifyPassword(hash, 'sleigh-bells-ring-42')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    expect(await verifyAgainstDummy('Sleigh-Bells-Ring-42')).toBe(false);
  });

  it('keeps the event loop responsive while many hashes run', { retry: 2 }, async () => {
    const started = performance.now();
    let maxLag = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      maxLag = Math.max(maxLag, now - last - 5);
      last = now;
    }, 5);
    await Promise.all(Array.from({ length: 12 }, (_, i) => hashPassword(`Many-Families-Booking-${i}`)));
    clearInterval(timer);
    // Hashing on the loop would stall it for most of the run; relative, so a busy machine does not fail it.
    expect(maxLag).toBeLessThan((performance.now() - started) / 3);
  });

  it('hashes on threads at a lower CPU priority than the event loop (Linux: niceness is per thread)', async () => {
    await hashPassword('Lower-Priority-Please-1');
    const niceness = await hashWorkers.niceness();
    expect(niceness.length).toBeGreaterThan(0);
    for (const n of niceness) expect(n).toBeGreaterThanOrEqual(10);
    // The event loop's thread (and so every request) keeps its own.
    expect(os.getPriority(0)).toBeLessThan(10);
  });
});
