import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { LIVE_INTERVAL_MS, LIVE_WINDOW_MINUTES } from '@kringle/contracts/live';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's 5xx answers, and the other processes' as they tell it (decision 0094). */
    serverErrors: ServerErrors;
  }
}

export const SERVER_ERRORS_CHANNEL = 'kringle_server_errors';
const WINDOW_MS = LIVE_WINDOW_MINUTES * 60_000;
/** Another process's figure is trusted this long after it said it: three of its 2 s reports. */
const STALE_MS = 3 * LIVE_INTERVAL_MS;

/**
 * The 5xx answers of the last 5 minutes across the API processes (decision 0094), without a table
 * written on the path of a failing request. Each process counts its own by the second, and while
 * that count is above 0 it says it every 2 s on a PostgreSQL channel (NOTIFY, one tiny statement);
 * a process asked for the figure listens there (one connection, opened at the first ask) and adds
 * what the others said within the last 6 s to its own. So: a process that is down or cannot reach
 * the database counts only for itself; a process listening for less than 2 s may miss another's.
 */
export class ServerErrors {
  readonly processId = randomUUID();
  /** This process's 5xx by the second (epoch seconds), the last 5 minutes' worth. */
  private readonly bySecond = new Map<number, number>();
  /** What the other processes said: their 5-minute total and when it was heard. */
  private readonly others = new Map<string, { total: number; heardAt: number }>();
  private publisher: NodeJS.Timeout | null = null;
  private client: pg.Client | null = null;
  private listening: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly deps: {
      pool: pg.Pool;
      nowMs: () => number;
      log: FastifyBaseLogger;
    },
  ) {}

  /** One 5xx answered by this process (the error handler calls it: nothing on a good answer's path). */
  record(): void {
    const second = Math.floor(this.deps.nowMs() / 1000);
    this.bySecond.set(second, (this.bySecond.get(second) ?? 0) + 1);
    if (!this.publisher && !this.closed) {
      this.publisher = setInterval(() => this.publish(), LIVE_INTERVAL_MS);
      this.publisher.unref();
      this.publish();
    }
  }

  /** This process's 5xx within the window. */
  own(): number {
    const oldest = Math.floor((this.deps.nowMs() - WINDOW_MS) / 1000);
    let total = 0;
    for (const [second, n] of this.bySecond) {
      if (second <= oldest) this.bySecond.delete(second);
      else total += n;
    }
    return total;
  }

  /** Every process's 5xx within the window, as far as this one knows (it starts listening if it did not). */
  async total(): Promise<number> {
    await this.listen();
    const now = this.deps.nowMs();
    let total = this.own();
    for (const [id, said] of this.others) {
      if (now - said.heardAt > STALE_MS || now < said.heardAt) this.others.delete(id);
      else total += said.total;
    }
    return total;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.publisher) clearInterval(this.publisher);
    this.publisher = null;
    await this.client?.end().catch(() => {});
  }

  /** Says this process's total; the last time when it is back to 0. A failure waits for the next turn. */
  private publish(): void {
    const total = this.own();
    const payload = JSON.stringify({ p: this.processId, n: total });
    this.deps.pool.query('select pg_notify($1, $2)', [SERVER_ERRORS_CHANNEL, payload]).catch(() => undefined);
    if (total === 0 && this.publisher) {
      clearInterval(this.publisher);
      this.publisher = null;
    }
  }

  private hear(payload: string | undefined): void {
    let said: unknown;
    try {
      said = JSON.parse(payload ?? '');
    } catch {
      return;
    }
    const { p, n } = (said ?? {}) as { p?: unknown; n?: unknown };
    if (typeof p !== 'string' || p === this.processId || !Number.isInteger(n) || (n as number) < 0) return;
    this.others.set(p, { total: n as number, heardAt: this.deps.nowMs() });
  }

  private listen(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.listening ??= (async () => {
      const c = new pg.Client({ ...this.deps.pool.options, application_name: 'kringle-api-errors', keepAlive: true });
      c.on('notification', (msg) => this.hear(msg.payload));
      c.on('error', (err) => this.deps.log.warn({ err }, "5xx listener failed; the Live page counts this process's"));
      c.on('end', () => {
        if (this.client !== c) return;
        this.client = null;
        this.listening = null;
      });
      try {
        await c.connect();
        await c.query(`listen ${SERVER_ERRORS_CHANNEL}`);
        if (this.closed) await c.end();
        else this.client = c;
      } catch (err) {
        this.deps.log.warn({ err }, "5xx listener could not connect; the Live page counts this process's");
        this.listening = null;
        await c.end().catch(() => {});
      }
    })();
    return this.listening;
  }
}
