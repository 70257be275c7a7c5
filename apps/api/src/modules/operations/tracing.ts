import { createRequire } from 'node:module';
import type { IncomingMessage } from 'node:http';
import FastifyOtelInstrumentation from '@fastify/otel';
import { context, propagation, trace, type Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import type { FastifyPluginCallback } from 'fastify';
import type { Config } from '../../config/config';
import { traceShapedIdOf } from '../../lib/request-id';

/**
 * What the app gets from tracing when it is on (decision 0095). This module is imported only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (start.ts), before the app, so nothing of OpenTelemetry is
 * loaded otherwise and its hooks are in place before `pg` and `http` are.
 */
export interface Tracing {
  /** Fastify's genReqId: the request's trace id (its HTTP span's), so request id = trace id. */
  requestId(req: IncomingMessage): string;
  /** Registered first in the app: the Fastify request and handler spans. */
  fastifyPlugin: FastifyPluginCallback;
  /** For the banner: where the spans go and how they are sampled. */
  description: string;
  /** Sends what is left; after the app has closed. */
  shutdown(): Promise<void>;
}

/** Probes answer load balancers every few seconds: a span each would be most of the traces, and tell nothing. */
const PROBES = new Set(['/health', '/ready', '/api/v1/health', '/api/v1/ready']);

/** The standard OTEL_TRACES_SAMPLER values; unset, production's: a tenth of new traces, and what a caller sampled. */
export function samplerOf(config: Pick<Config, 'OTEL_TRACES_SAMPLER' | 'OTEL_TRACES_SAMPLER_ARG'>): {
  sampler: Sampler;
  name: string;
} {
  const name = config.OTEL_TRACES_SAMPLER ?? 'parentbased_traceidratio';
  const ratio = config.OTEL_TRACES_SAMPLER_ARG ?? (config.OTEL_TRACES_SAMPLER ? 1 : 0.1);
  const root: Record<string, () => Sampler> = {
    always_on: () => new AlwaysOnSampler(),
    always_off: () => new AlwaysOffSampler(),
    traceidratio: () => new TraceIdRatioBasedSampler(ratio),
  };
  const base = name.replace(/^parentbased_/, '');
  const sampler = name.startsWith('parentbased_') ? new ParentBasedSampler({ root: root[base]!() }) : root[base]!();
  return { sampler, name: base === 'traceidratio' ? `${name} ${ratio}` : name };
}

/** Attributes that can hold a URL's query (a family search's e-mail, a signed link's signature). */
const URL_ATTRIBUTES = ['url.full', 'url.path', 'http.target', 'http.url'];

/**
 * Before a sampled span is handed to the exporter: no query string in any attribute (only paths
 * and route templates), whichever instrumentation set it. SQL keeps its text, never its values
 * (instrumentation-pg's default, pinned in tracing.test.ts).
 */
export const withoutQueries: SpanProcessor = {
  onStart() {},
  onEnding(span: Span) {
    const attributes = span.attributes as Record<string, unknown>;
    delete attributes['url.query'];
    for (const key of URL_ATTRIBUTES) {
      const value = attributes[key];
      if (typeof value === 'string' && value.includes('?')) attributes[key] = value.slice(0, value.indexOf('?'));
    }
  },
  onEnd() {},
  forceFlush: async () => {},
  shutdown: async () => {},
};

export function startTracing(config: Config): Tracing {
  const { sampler, name } = samplerOf(config);
  const exporter = new OTLPTraceExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME }),
    sampler,
    spanProcessors: [
      withoutQueries,
      new BatchSpanProcessor({ exporter, scheduledDelayMillis: config.OTEL_BSP_SCHEDULE_DELAY }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  const fastify = new FastifyOtelInstrumentation({
    // The request span and the handler's; a span per hook (a dozen per request) is not worth its cost.
    instrumentHooks: false,
  });
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => PROBES.has((req.url ?? '').split('?')[0]!),
        // Outgoing calls (Stripe, S3) only inside a traced request: the jobs' polls would be traces of their own.
        requireParentforOutgoingSpans: true,
      }),
      new PgInstrumentation({
        // Queries only inside a traced request (not the jobs' and listeners'); never their values.
        requireParentSpan: true,
        enhancedDatabaseReporting: false,
      }),
      fastify,
    ],
  });
  // Loaded through require now, with the hooks in place, so they are patched however the app
  // imports them later (Node 24 sends an ESM import of a CommonJS package through the hook too).
  const require = createRequire(import.meta.url);
  require('node:http');
  require('pg');
  const endpoint = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? config.OTEL_EXPORTER_OTLP_ENDPOINT;
  return {
    requestId(req) {
      const active: Context = context.active();
      return trace.getSpan(active)?.spanContext().traceId ?? traceShapedIdOf(req.headers);
    },
    fastifyPlugin: fastify.plugin() as unknown as FastifyPluginCallback,
    description: `OTLP to ${endpoint} (${name})`,
    shutdown: () => provider.shutdown(),
  };
}
