import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash, verify, type Options } from '@node-rs/argon2';

/**
 * argon2id with OWASP's minimum (m=19 MiB, t=2, p=1). `algorithm: 2` is Argon2id: the package
 * exports it as an ambient const enum, which isolated modules cannot read.
 */
const ARGON2ID: Options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * Hashing runs on libuv's thread pool (never on the event loop), but a burst of sign-ins could
 * still fill that pool (4 threads by default, shared with fs and dns) and use 19 MiB each, so at
 * most 3 run at once (fewer on small machines), leaving a thread free; the rest wait in line.
 */
const MAX_CONCURRENT_HASHES = Math.max(1, Math.min(3, availableParallelism() - 1));

class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // Hand the slot straight to the next waiter, so `active` never drops and rises again.
      if (next) next();
      else this.active -= 1;
    }
  }
}

const hashing = new Semaphore(MAX_CONCURRENT_HASHES);

export function hashPassword(password: string): Promise<string> {
  return hashing.run(() => hash(password, ARGON2ID));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashing.run(() => verify(passwordHash, password));
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
