import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';

const KEEP_ALIVE_MS = 25_000;
/** A client this far behind is not reading: it is let go (it reconnects). */
const MAX_BUFFERED_BYTES = 256 * 1024;

export interface EventStream {
  /** Sends one event (`data` as JSON); nothing once ended. */
  send(data: unknown, event?: string): void;
  /** Ends the stream (idempotent): the client's close, the token's expiry and shutdown call it too. */
  end(): void;
}

/**
 * A text/event-stream answer in the house shape (decisions 0026, 0048, 0053): `retry: 3000` first,
 * a keep-alive comment every 25 s, let go when the client falls 256 KiB behind, when the ID token
 * that opened it expires, and when the client goes away; `onEnd` runs once whatever ended it.
 * Returns the stream and the promise of the reply that sends it.
 */
export function openEventStream(
  reply: FastifyReply,
  opts: { msLeft: number; onEnd: () => void },
): { stream: EventStream; sent: FastifyReply } {
  const body = new PassThrough();
  let ended = false;
  const write = (text: string) => {
    if (ended) return;
    if (body.writableLength > MAX_BUFFERED_BYTES) return end();
    body.write(text);
  };
  const keepAlive = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();
  // The stream is only as good as the token that opened it; the client reopens with a fresh one.
  const expiry = setTimeout(() => end(), Math.max(0, opts.msLeft));
  expiry.unref();
  function end() {
    if (ended) return;
    ended = true;
    clearInterval(keepAlive);
    clearTimeout(expiry);
    opts.onEnd();
    body.end();
  }
  // The response's close: the client went away (the request's own close fires once its body is read).
  reply.raw.once('close', end);
  body.write('retry: 3000\n\n');
  const sent = reply
    .header('cache-control', 'no-cache, no-transform')
    // Proxies (nginx) must pass events on as they come.
    .header('x-accel-buffering', 'no')
    .type('text/event-stream; charset=utf-8')
    .send(body);
  return {
    stream: {
      send: (data, event) => write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`),
      end,
    },
    sent,
  };
}
