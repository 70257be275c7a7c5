import { createRequire } from 'node:module';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import FastifyOtelInstrumentation from '@fastify/otel';
import { context, propagation, ROOT_CONTEXT, SamplingDecision, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { isTracingSuppressed, suppressTracing, W3CTraceContextPropagator } from '@opentelemetry/core';
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
  RandomIdGenerator,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type IdGenerator,
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
  /** Fastify's genReqId: the request's trace id (its HTTP span's, or the unsampled one's), so request id = trace id. */
  requestId(req: IncomingMessage): string;
  /**
   * The server's `emit` (instrumentation-http's wrapper) made to sample first: what the sampler
   * keeps goes through it, what it drops goes around it with tracing suppressed (decision 0102).
   */
  sampleFirst(emit: Server['emit']): Server['emit'];
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

/** An unsampled request's trace id, for its request id (it has no span to carry one). */
const UNSAMPLED_TRACE_ID = Symbol('unsampled trace id');
type Unsampled = IncomingMessage & { [UNSAMPLED_TRACE_ID]?: string };
/** What an unsampled request runs in: instrumentation-http's own context for a request it ignores. */
const SUPPRESSED = suppressTracing(ROOT_CONTEXT);

/**
 * Random ids, as the SDK's own, but for one hand-over: the trace id sampleFirst decided on for a
 * new trace, taken by the next root span (instrumentation-http's server span, started within the
 * same synchronous emit), so the span has the id the decision was made on.
 */
class HandedIdGenerator implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  handed: string | undefined;
  generateTraceId = (): string => {
    const id = this.handed ?? this.random.generateTraceId();
    this.handed = undefined;
    return id;
  };
  generateSpanId = (): string => this.random.generateSpanId();
  newTraceId = (): string => this.random.generateTraceId();
}

/**
 * Head sampling ahead of instrumentation-http (decision 0102). For every request it does not
 * ignore, instrumentation-http builds the span's attributes, extracts the context, starts a span,
 * binds the request and response to its context and listens for their end: sampled or not, since
 * the sampler only runs inside startSpan. Here the configured sampler decides first, on the same
 * parent (the request's `traceparent`) and the trace id the span will have; a request it drops
 * takes instrumentation-http's own path for an ignored request (tracing suppressed, the request
 * and response bound to that context), so neither Fastify's plugin nor pg starts any span under it.
 * Only whole traces are dropped: a caller's sampled `traceparent` is always followed.
 */
function sampleFirstWith(sampler: Sampler, ids: HandedIdGenerator) {
  type Emit = (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  return (wrapped: Server['emit']): Server['emit'] => {
    const emit = wrapped as Emit;
    // instrumentation-http wraps with shimmer, which keeps the unwrapped function beside the wrapper.
    const plain = (emit as { __original?: Emit }).__original ?? emit;
    return function (this: Server, event: string | symbol, ...args: unknown[]) {
      if (event !== 'request') return emit.call(this, event, ...args);
      const [req, res] = args as [IncomingMessage, ServerResponse];
      const probe = PROBES.has((req.url ?? '').split('?')[0]!);
      const parent = probe ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, req.headers);
      const remote = trace.getSpanContext(parent);
      const traceId = remote && trace.isSpanContextValid(remote) ? remote.traceId : ids.newTraceId();
      const kept =
        !probe &&
        sampler.shouldSample(parent, traceId, req.method ?? 'GET', SpanKind.SERVER, {}, []).decision ===
          SamplingDecision.RECORD_AND_SAMPLED;
      if (kept) {
        if (traceId !== remote?.traceId) ids.handed = traceId;
        try {
          return emit.call(this, event, ...args);
        } finally {
          ids.handed = undefined;
        }
      }
      // Probes keep a trace-shaped id of their own (request-id.ts); the rest their trace's.
      if (!probe) (req as Unsampled)[UNSAMPLED_TRACE_ID] = traceId;
      return context.with(SUPPRESSED, () => {
        context.bind(SUPPRESSED, req);
        context.bind(SUPPRESSED, res);
        return plain.call(this, event, ...args);
      });
    } as Server['emit'];
  };
}

export function startTracing(config: Config): Tracing {
  const { sampler, name } = samplerOf(config);
  const exporter = new OTLPTraceExporter();
  const ids = new HandedIdGenerator();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME }),
    sampler,
    idGenerator: ids,
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
    // Nothing for a request whose trace is not sampled (sampleFirst): no span, attributes or context
    // per request and per handler, so pg sees no parent span and skips too. Asked per route at
    // registration too, with no context: every route is instrumented.
    ignorePaths: () => isTracingSuppressed(context.active()),
  });
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Requests reach it only when sampled (sampleFirst; probes never). Outgoing calls (Stripe, S3)
        // only inside a traced request: the jobs' polls would be traces of their own.
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
      const unsampled = (req as Unsampled)[UNSAMPLED_TRACE_ID];
      if (unsampled) return unsampled;
      return trace.getSpan(context.active())?.spanContext().traceId ?? traceShapedIdOf(req.headers);
    },
    sampleFirst: sampleFirstWith(sampler, ids),
    fastifyPlugin: fastify.plugin() as unknown as FastifyPluginCallback,
    description: `OTLP to ${endpoint} (${name})`,
    shutdown: () => provider.shutdown(),
  };
}
