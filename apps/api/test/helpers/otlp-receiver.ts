import { createRequire } from 'node:module';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The OTLP protocol's own protobuf definitions, as the OpenTelemetry project compiled them
 * (protobufjs): @opentelemetry/otlp-transformer 0.57, the last release that shipped them, installed
 * under an alias beside the current one the API exports with.
 */
const { opentelemetry } = createRequire(import.meta.url)('otlp-transformer-0.57/build/src/generated/root.js') as {
  opentelemetry: {
    proto: {
      collector: {
        trace: {
          v1: {
            ExportTraceServiceRequest: {
              decode(bytes: Uint8Array): unknown;
              toObject(message: unknown, options: Record<string, unknown>): ExportRequest;
            };
          };
        };
      };
    };
  };
};

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { scope?: { name: string }; spans?: RawSpan[] }[];
  }[];
}
interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}
interface RawSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
  events?: { name: string; attributes?: KeyValue[] }[];
}

/** One received span, decoded: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  scope: string;
  service: string;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
}

export interface OtlpReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT (the exporter adds /v1/traces). */
  url: string;
  spans: ReceivedSpan[];
  /** Every request body as it arrived, for looking for secrets in what was sent at all. */
  bodies: Buffer[];
  close(): Promise<void>;
}

const hex = (bytes: unknown) => Buffer.from((bytes as Uint8Array | undefined) ?? []).toString('hex');
const plain = (value: Record<string, unknown>): unknown => {
  const [kind, v] = Object.entries(value)[0] ?? [];
  if (kind === 'arrayValue') return ((v as { values?: Record<string, unknown>[] }).values ?? []).map(plain);
  if (kind === 'intValue') return Number(v);
  return v;
};
const attributesOf = (list: KeyValue[] = []) => Object.fromEntries(list.map((kv) => [kv.key, plain(kv.value)]));

/** A real OTLP/HTTP receiver (protobuf, `POST /v1/traces`), as a collector is to the API. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: Buffer[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (
        req.method !== 'POST' ||
        req.url !== '/v1/traces' ||
        req.headers['content-type'] !== 'application/x-protobuf'
      ) {
        res.writeHead(415).end();
        return;
      }
      const body = Buffer.concat(chunks);
      bodies.push(body);
      const type = opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
      const request = type.toObject(type.decode(body), { longs: String, bytes: Buffer, defaults: false });
      for (const resourceSpans of request.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scopeSpans of resourceSpans.scopeSpans ?? [])
          for (const span of scopeSpans.spans ?? [])
            spans.push({
              traceId: hex(span.traceId),
              spanId: hex(span.spanId),
              parentSpanId: hex(span.parentSpanId),
              name: span.name,
              kind: span.kind,
              scope: scopeSpans.scope?.name ?? '',
              service,
              attributes: attributesOf(span.attributes),
              events: (span.events ?? []).map((e) => ({ name: e.name, attributes: attributesOf(e.attributes) })),
            });
      }
      // An empty ExportTraceServiceResponse: everything accepted.
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
