import net from 'node:net';

/** How one attempt's socket ended up once it settled: an HTTP status, 'closed' unanswered, or 'open' (held). */
export type Outcome = 'open' | 'closed' | string;

export interface FloodLaneResult {
  attempts: number;
  /** Outcomes of every attempt, counted. */
  outcomes: Record<string, number>;
  /** The most answered 200 (a live stream) and still open at once. */
  peak200: number;
}

export interface FloodResult {
  slow: FloodLaneResult;
  streams: FloodLaneResult;
  /**
   * The most sockets from the attacker's address the server held at once, both lanes together:
   * sampled every 250 ms, counting sockets open for HELD_AFTER_MS or more (on a loaded host the
   * server may take a moment to close a socket past its cap; that moment is not holding it).
   */
  peakHeld: number;
}

const HELD_AFTER_MS = 2000;

interface Lane {
  name: 'slow' | 'streams';
  count: number;
  payload: string;
  settleMs: number;
}

/**
 * Issue 36's attacker, from one address, kept up for as long as the flood runs: `slow` sockets each
 * sending a request line, `Content-Length: 60000` and one byte, and `streams` live-stream attempts
 * of one account. Each attempt's socket, once the server closes it, is opened again after
 * `reattemptMs`: the pressure lasts through the measurement instead of ending with the first wave.
 * Opened in waves of 200 so the attacker's own event loop keeps up.
 */
export function startFlood(opts: {
  port: number;
  attacker: string;
  slow: Omit<Lane, 'name'>;
  streams: Omit<Lane, 'name'>;
  reattemptMs: number;
}) {
  let running = true;
  /** Every open socket and when it was opened. */
  const all = new Map<net.Socket, number>();
  let peakHeld = 0;
  const sampler = setInterval(() => {
    const before = Date.now() - HELD_AFTER_MS;
    let held = 0;
    for (const openedAt of all.values()) if (openedAt <= before) held++;
    peakHeld = Math.max(peakHeld, held);
  }, 250);
  const result = (): FloodLaneResult => ({ attempts: 0, outcomes: {}, peak200: 0 });
  const lanes = { slow: result(), streams: result() };
  const ok = { slow: 0, streams: 0 };

  const attempt = (lane: Lane): Promise<void> =>
    new Promise((resolve) => {
      const stats = lanes[lane.name];
      stats.attempts++;
      const socket = net.connect({ port: opts.port, host: '127.0.0.1', localAddress: opts.attacker });
      all.set(socket, Date.now());
      let head = '';
      let settled: Outcome | null = null;
      const settle = (outcome: Outcome) => {
        if (settled) return;
        settled = outcome;
        clearTimeout(timer);
        stats.outcomes[outcome] = (stats.outcomes[outcome] ?? 0) + 1;
        if (outcome === '200') stats.peak200 = Math.max(stats.peak200, ++ok[lane.name]);
        resolve();
      };
      const timer = setTimeout(() => settle('open'), lane.settleMs);
      socket.on('connect', () => socket.write(lane.payload));
      socket.on('data', (chunk: Buffer) => {
        head += chunk.toString();
        const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
        if (status) settle(status[1]!);
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        all.delete(socket);
        if (!settled) settle('closed');
        if (settled === '200') ok[lane.name]--;
        if (running) setTimeout(() => running && void attempt(lane), opts.reattemptMs).unref();
      });
    });

  // Waves of 200, streams and slow sockets in turn, so both meet the server with places still free.
  const ready = (async () => {
    const order: Lane[] = [
      { name: 'streams', ...opts.streams },
      { name: 'slow', ...opts.slow },
    ];
    for (let i = 0; running && order.some((l) => i < l.count); i += 200) {
      for (const lane of order)
        if (i < lane.count)
          await Promise.all(Array.from({ length: Math.min(200, lane.count - i) }, () => attempt(lane)));
    }
  })();

  return {
    /** Resolves once every lane's first attempt has settled. */
    ready,
    stop(): FloodResult {
      running = false;
      clearInterval(sampler);
      for (const s of all.keys()) s.destroy();
      return { slow: lanes.slow, streams: lanes.streams, peakHeld };
    },
  };
}

export const tally = (outcomes: Record<string, number>) =>
  Object.entries(outcomes)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
