import Fastify from 'fastify';

/**
 * The ceiling for an HTTP read on this machine: bare Fastify with no plugins, no logging, one
 * route answering a small JSON object. Started like the API (three processes behind the same nginx).
 */
const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
