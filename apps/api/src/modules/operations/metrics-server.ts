import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { metricsRegistry } from './metrics';

export interface MetricsServer {
  /** Where Prometheus scrapes, e.g. http://127.0.0.1:9464/metrics. */
  url: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on its own listener (decision 0088): a plain Node server, so none of the public
 * API's hooks, limits or routes apply, and nothing on the public port can reach it. Anything else
 * is 404. Its own port, so a firewall or a private address keeps it off the internet.
 */
export async function startMetricsServer(host: string, port: number): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metricsRegistry.metrics().then(
      (text) =>
        res
          .writeHead(200, { 'content-type': metricsRegistry.contentType })
          .end(req.method === 'HEAD' ? undefined : text),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${String(err)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The listener as configured, or null when off (METRICS_ENABLED=false or METRICS_PORT=0). A port
 * already taken (the old process of a rolling restart, say) is logged, not fatal: families are
 * served, and Prometheus shows the target down.
 */
export async function startConfiguredMetrics(
  config: { METRICS_ENABLED: boolean; METRICS_HOST: string; METRICS_PORT: number },
  log: FastifyBaseLogger,
): Promise<MetricsServer | null> {
  if (!config.METRICS_ENABLED || config.METRICS_PORT === 0) return null;
  try {
    const server = await startMetricsServer(config.METRICS_HOST, config.METRICS_PORT);
    log.info(`metrics at ${server.url}`);
    return server;
  } catch (err) {
    log.error({ err }, `metrics not served: cannot listen on ${config.METRICS_HOST}:${config.METRICS_PORT}`);
    return null;
  }
}
