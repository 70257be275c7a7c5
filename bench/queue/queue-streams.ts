import net from 'node:net';

/** One family watching its ticket over `GET /queue/{id}/live` (SSE), and when its updates arrived. */
export interface Stream {
  socket: net.Socket;
  /** When a ticket with a place (not before_open) arrived (Date.now()). */
  placedAt: number | null;
  /** When a ticket saying `admitted` arrived. */
  admittedAt: number | null;
}

export function openStream(port: number, pathAndQuery: string, headers: Record<string, string>): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const stream: Stream = { socket, placedAt: null, admittedAt: null };
    let head = '';
    let open = false;
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      const lines = Object.entries({ host: `127.0.0.1:${port}`, accept: 'text/event-stream', ...headers }).map(
        ([k, v]) => `${k}: ${v}`,
      );
      socket.write(`GET ${pathAndQuery} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('data', (chunk: string) => {
      if (!open) {
        head += chunk;
        const end = head.indexOf('\r\n\r\n');
        if (end === -1) return;
        if (!/^HTTP\/1\.1 200/.test(head)) {
          socket.destroy();
          return reject(new Error(`the live stream answered: ${head.slice(0, 300)}`));
        }
        open = true;
        resolve(stream);
        chunk = head.slice(end + 4);
      }
      if (stream.placedAt === null && /event: ticket\ndata: [^\n]*"status":"(waiting|admitted|sold_out)"/.test(chunk))
        stream.placedAt = Date.now();
      if (stream.admittedAt === null && /event: ticket\ndata: [^\n]*"status":"admitted"/.test(chunk))
        stream.admittedAt = Date.now();
    });
    socket.on('error', reject);
  });
}

/** Spearman's rank correlation of two equally long lists of distinct ranks. */
export function spearman(a: number[], b: number[]): number {
  const rank = (xs: number[]) => {
    const order = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
    const r = new Array<number>(xs.length);
    order.forEach(([, i], k) => (r[i] = k + 1));
    return r;
  };
  const ra = rank(a);
  const rb = rank(b);
  const n = a.length;
  const d2 = ra.reduce((sum, r, i) => sum + (r - rb[i]!) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}

export const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
