import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Options } from '@node-rs/argon2';
import { HashWorkers } from './hash-workers';

/**
 * argon2id with OWASP's minimum (m=19 MiB, t=2, p=1). `algorithm: 2` is Argon2id: the package
 * exports it as an ambient const enum, which isolated modules cannot read.
 */
const ARGON2ID: Options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * Hashing never runs on the event loop: it runs on worker threads of its own at a lower CPU
 * priority (hash-workers.ts, decision 0029), at most 3 at once (fewer on small machines, leaving
 * a core for the event loop), 19 MiB each; the rest wait in line.
 */
const MAX_CONCURRENT_HASHES = Math.max(1, Math.min(3, availableParallelism() - 1));

export const hashWorkers = new HashWorkers(MAX_CONCURRENT_HASHES);

export function hashPassword(password: string): Promise<string> {
  return hashWorkers.hash(password, ARGON2ID);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashWorkers.verify(passwordHash, password);
  } catch {
    // A malformed stored hash is a failed sign-in, not a server error.
    return false;
  }
}

let dummyHash: Promise<string> | null = null;
const dummy = () => (dummyHash ??= hashPassword(randomBytes(24).toString('base64url')));

/** Computes the dummy hash ahead of the first unknown-e-mail sign-in (which would otherwise pay twice). */
export function prepareDummyHash(): void {
  void dummy();
}

/**
 * Spends the same work as a real check when the e-mail is unknown, so a sign-in's timing does
 * not reveal whether an account exists. Always false.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(await dummy(), password);
  return false;
}
