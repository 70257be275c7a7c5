import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  body: string;
  signature: string;
  headers: http.IncomingHttpHeaders;
}

/** A stand-in for the API's webhook endpoint: records raw bodies, answers what the test says. */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Status codes to answer, in order; 200 once they run out. */
  respondWith(statuses: number[]): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let statuses: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['stripe-signature']),
        headers: req.headers,
      });
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/stripe`,
    received,
    respondWith: (s) => (statuses = [...s]),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The event types of what arrived, in arrival order. */
export function receivedTypes(receiver: WebhookReceiver): string[] {
  return receiver.received.map((r) => (JSON.parse(r.body) as { type: string }).type);
}
