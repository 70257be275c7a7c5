import http from 'node:http';
import { expect, it } from 'vitest';
import { createTestApp } from '../helpers/test-app';

/**
 * A close (a test's teardown, Ctrl-C) while an answer is being worked on. Fastify reaps the idle
 * keep-alive sockets once, when the close starts; the answer in flight then left its socket idle,
 * kept alive, and the close waited out KEEP_ALIVE_TIMEOUT_MS (72 s): CI's promo-codes teardown hit
 * its 60 s hook timeout with a webhook delivery in flight. The answer now closes its connection.
 */
it('closes soon after the answer in flight, which closes its keep-alive connection', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const inFlight = new Promise<void>((resolve) => (arrived = resolve));
  const t = await createTestApp({}, undefined, (app) => {
    app.get('/test/slow', { config: { auth: 'public' } }, async () => {
      arrived();
      await gate;
      return { ok: true };
    });
  });
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const agent = new http.Agent({ keepAlive: true });
  const answered = new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get(`${url}/test/slow`, { agent }, resolve).on('error', reject),
  );
  await inFlight;
  const closed = t.close().then(() => Date.now());
  await new Promise((r) => setTimeout(r, 100));
  release();
  const res = await answered;
  res.resume();
  const answeredAt = Date.now();
  expect(res.statusCode).toBe(200);
  expect(res.headers.connection).toBe('close');
  expect((await closed) - answeredAt).toBeLessThan(10_000);
  agent.destroy();
}, 30_000);
