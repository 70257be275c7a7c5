import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

export interface ListenOptions {
  databaseUrl: string;
  /** Shown in pg_stat_activity (tests cut a listener off by it). */
  applicationName: string;
  channels: readonly string[];
  onNotification(channel: string, payload: string): void;
  /** True once LISTEN is in place; false when the connection is lost or stopped. */
  onListening(listening: boolean): void;
  /** After every attempt to connect, heard or not (a reload of what may have been missed). */
  afterAttempt?(): Promise<void>;
  log: FastifyBaseLogger;
  /** What the logs call this listener: "taken-sessions listener", "session-ends listener". */
  name: string;
}

/**
 * One LISTEN connection that reconnects on its own (1 s, then up to 10 s apart), with keepAlive so
 * a connection that died silently is noticed. `ready` resolves after the first attempt, heard or
 * not: a process must still start while the database blinks. Needs a direct or session-pooled
 * connection (LISTEN does not survive transaction pooling).
 */
export function listenWithReconnect(options: ListenOptions): { ready: Promise<void>; stop(): Promise<void> } {
  const { log, name } = options;
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let delayMs = 1000;

  const later = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, delayMs);
    retry.unref();
    delayMs = Math.min(delayMs * 2, 10_000);
  };

  const connect = async (): Promise<void> => {
    if (stopped) return;
    const c = new pg.Client({
      connectionString: options.databaseUrl,
      application_name: options.applicationName,
      keepAlive: true,
    });
    c.on('notification', (msg) => {
      if (msg.payload) options.onNotification(msg.channel, msg.payload);
    });
    // 'end' follows an error; that is where it reconnects.
    c.on('error', () => {});
    c.on('end', () => {
      if (client !== c) return;
      client = null;
      options.onListening(false);
      if (!stopped) log.warn(`${name} lost its connection; reconnecting`);
      later();
    });
    try {
      await c.connect();
      await c.query(options.channels.map((channel) => `listen ${channel}`).join('; '));
      if (stopped) return void (await c.end().catch(() => {}));
      client = c;
      options.onListening(true);
      delayMs = 1000;
    } catch (err) {
      log.warn({ err }, `${name} could not connect; will try again`);
      await c.end().catch(() => {});
      later();
    }
    await options.afterAttempt?.();
  };

  return {
    ready: connect(),
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const c = client;
      client = null;
      options.onListening(false);
      await c?.end().catch(() => {});
    },
  };
}
