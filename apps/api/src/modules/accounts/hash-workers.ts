import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Options } from '@node-rs/argon2';

/**
 * argon2 on worker threads of their own, at a lower CPU priority than the event loop (decision
 * 0029). On libuv's pool the hashes ran at the event loop's priority, so on a busy machine a
 * sign-in storm took the cores from the reads (their p99 rose with the storm). A thread at
 * niceness 10 still uses every idle cycle, but the kernel runs the event loops first.
 *
 * The worker's code is a string (an eval worker), so the one-file build (build.mjs) and the
 * sources under tsx both run it; it loads @node-rs/argon2 from where this module resolves it.
 */
const ARGON2_PATH = createRequire(import.meta.url).resolve('@node-rs/argon2');
const NICENESS = 10;
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const os = require('node:os');
const argon2 = require(${JSON.stringify(ARGON2_PATH)});
// On Linux, pid 0 is this thread alone: the event loop keeps its priority.
let niceness = null;
try { os.setPriority(0, ${NICENESS}); niceness = os.getPriority(0); } catch {}
parentPort.postMessage({ ready: true, niceness });
parentPort.on('message', ({ id, op, password, hash, options }) => {
  try {
    const value = op === 'hash' ? argon2.hashSync(password, options) : argon2.verifySync(hash, password);
    parentPort.postMessage({ id, value });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

type Job = { op: 'hash'; password: string; options: Options } | { op: 'verify'; hash: string; password: string };
interface Pending {
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

/**
 * An idle thread is ended after this long: a thread that has loaded @node-rs/argon2 keeps the
 * process alive even unref'd, so scripts that hash a password (bench seeds, tests) would never exit.
 */
const IDLE_MS = 10_000;

class HashWorker {
  private readonly worker: Worker;
  readonly pending = new Map<number, Pending>();
  private idle: NodeJS.Timeout | null = null;
  /** The thread's niceness once it has started (null: could not be lowered). */
  niceness: Promise<number | null>;

  constructor(onGone: (w: HashWorker) => void) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true });
    // Never keeps the process alive: a server's own handles do that.
    this.worker.unref();
    let ready!: (n: number | null) => void;
    this.niceness = new Promise((resolve) => (ready = resolve));
    this.worker.on(
      'message',
      (m: { ready?: boolean; niceness?: number | null; id?: number; value?: string | boolean; error?: string }) => {
        if (m.ready) return ready(m.niceness ?? null);
        const job = this.pending.get(m.id!);
        this.pending.delete(m.id!);
        if (m.error !== undefined) job?.reject(new Error(m.error));
        else job?.resolve(m.value!);
        if (this.pending.size > 0) return;
        this.idle = setTimeout(() => {
          // Out of the pool first, so no job is sent to a thread on its way out.
          onGone(this);
          void this.worker.terminate();
        }, IDLE_MS).unref();
      },
    );
    const gone = (error: Error) => {
      for (const job of this.pending.values()) job.reject(error);
      this.pending.clear();
      ready(null);
      onGone(this);
    };
    this.worker.on('error', gone);
    this.worker.on('exit', (code) => gone(new Error(`argon2 worker exited with ${code}`)));
  }

  run(id: number, job: Job): Promise<string | boolean> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...job });
    });
  }
}

/**
 * `size` threads, started on first use; a job goes to the one with the fewest waiting (each
 * works through its own queue in order). A thread that dies fails its jobs and is replaced.
 */
export class HashWorkers {
  private workers: HashWorker[] = [];
  private nextId = 0;

  constructor(private readonly size: number) {}

  private pick(): HashWorker {
    if (this.workers.length < this.size) {
      const w = new HashWorker((gone) => (this.workers = this.workers.filter((x) => x !== gone)));
      this.workers.push(w);
      return w;
    }
    return this.workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  hash(password: string, options: Options): Promise<string> {
    return this.pick().run(this.nextId++, { op: 'hash', password, options }) as Promise<string>;
  }

  verify(hash: string, password: string): Promise<boolean> {
    return this.pick().run(this.nextId++, { op: 'verify', hash, password }) as Promise<boolean>;
  }

  /** The niceness of each started thread (tests). */
  niceness(): Promise<(number | null)[]> {
    return Promise.all(this.workers.map((w) => w.niceness));
  }
}
