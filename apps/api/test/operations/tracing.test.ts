import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver';
import { startSeasonOnProcesses, type SeasonOnProcesses } from '../helpers/season-on-processes';

/**
 * Decision 0095: the built API (dist/, as `npm start` and production run it) with
 * OTEL_EXPORTER_OTLP_ENDPOINT set sends its traces to a real OTLP/HTTP receiver: HTTP, Fastify and
 * PostgreSQL spans in one trace whose id is the answer's X-Request-Id, and nothing secret in them.
 */
const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUILD = 'dist/tracing-test';
const TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;
const HTTP_SCOPE = '@opentelemetry/instrumentation-http';
const FASTIFY_SCOPE = '@fastify/otel';
const PG_SCOPE = '@opentelemetry/instrumentation-pg';
const PASSWORD = 'Not-The-Password-42';

let receiver: OtlpReceiver;
let season: SeasonOnProcesses;
let base: string;

beforeAll(async () => {
  execFileSync(process.execPath, ['build.mjs', `${BUILD}/start.mjs`], { cwd: API_DIR });
  receiver = await startOtlpReceiver();
  season = await startSeasonOnProcesses(1, 1, {
    entry: `${BUILD}/start.mjs`,
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // Every new trace and every trace a caller sampled (none it did not), sent every 100 ms.
      OTEL_TRACES_SAMPLER: 'parentbased_always_on',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'kringle-tracing-test',
    },
  });
  base = season.api.urls[0]!;
}, 180_000);

afterAll(async () => {
  await season?.close();
  await receiver?.close();
  fs.rmSync(path.join(API_DIR, BUILD), { recursive: true, force: true });
});

/** The trace's spans once `until` holds of them (they arrive in batches), or what came within 15 s. */
async function traceOf(traceId: string, until: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const spans = receiver.spans.filter((s) => s.traceId === traceId);
    if (until(spans) || Date.now() > deadline) return spans;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const hasAll = (spans: ReceivedSpan[]) =>
  [HTTP_SCOPE, FASTIFY_SCOPE, PG_SCOPE].every((scope) => spans.some((s) => s.scope === scope));

/** Every ancestor of a span, nearest first, within its trace. */
function ancestorsOf(span: ReceivedSpan, spans: ReceivedSpan[]): ReceivedSpan[] {
  const chain: ReceivedSpan[] = [];
  for (
    let p = spans.find((s) => s.spanId === span.parentSpanId);
    p;
    p = spans.find((s) => s.spanId === p!.parentSpanId)
  )
    chain.push(p);
  return chain;
}

describe('traces over OTLP from the built API', () => {
  it('exports HTTP, Fastify and PostgreSQL spans in one trace whose id is the request id', async () => {
    const family = season.families[0]!;
    const res = await fetch(`${base}/api/v1/bookings/upcoming-bookings`, { headers: family.headers });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id')!;
    expect(requestId).toMatch(TRACE_ID);

    const spans = await traceOf(requestId, hasAll);
    const server = spans.find((s) => s.scope === HTTP_SCOPE)!;
    expect(server, JSON.stringify(spans.map((s) => [s.scope, s.name]))).toBeDefined();
    expect(server.kind).toBe(2); // SERVER
    expect(server.parentSpanId).toBe('');
    expect(server.service).toBe('kringle-tracing-test');
    expect(server.attributes['http.response.status_code'] ?? server.attributes['http.status_code']).toBe(200);

    const request = spans.find((s) => s.scope === FASTIFY_SCOPE && s.name === 'request')!;
    expect(request.parentSpanId).toBe(server.spanId);
    expect(request.attributes['http.route']).toBe('/api/v1/bookings/upcoming-bookings');
    const handler = spans.find((s) => s.scope === FASTIFY_SCOPE && s.name.startsWith('handler'))!;
    expect(handler.parentSpanId).toBe(request.spanId);

    const queries = spans.filter((s) => s.scope === PG_SCOPE);
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      expect(query.kind).toBe(3); // CLIENT
      expect(ancestorsOf(query, spans)).toContain(handler);
    }
    expect(queries.some((q) => /\bbookings\b/.test(String(q.attributes['db.query.text'])))).toBe(true);
  });

  it("continues an incoming W3C traceparent: the caller's trace id is the request id", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const res = await fetch(`${base}/api/v1/bookings/upcoming-bookings`, {
      headers: { ...season.families[0]!.headers, traceparent: `00-${traceId}-${parentId}-01` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(traceId);
    const spans = await traceOf(traceId, hasAll);
    expect(spans.find((s) => s.scope === HTTP_SCOPE)?.parentSpanId).toBe(parentId);
    expect(hasAll(spans)).toBe(true);
  });

  it('sends no span of a trace its caller did not sample, and that trace id is the request id', async () => {
    // What earlier tests' traces still had to send, sent: from here on only this test's requests run.
    await new Promise((r) => setTimeout(r, 1000));
    const sentBefore = receiver.spans.length;
    const unsampled = (traceId: string) => `00-${traceId}-00f067aa0ba902b7-00`;
    const read = await fetch(`${base}/api/v1/bookings/upcoming-bookings`, {
      headers: { ...season.families[0]!.headers, traceparent: unsampled('5bf92f3577b34da6a3ce929d0e0e4736') },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('x-request-id')).toBe('5bf92f3577b34da6a3ce929d0e0e4736');
    // A sign-in: a body, then a handler and queries that must know the trace is unsampled too.
    const signIn = await fetch(`${base}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: unsampled('6bf92f3577b34da6a3ce929d0e0e4736') },
      body: JSON.stringify({ email: season.families[0]!.email, password: PASSWORD }),
    });
    expect(signIn.status).toBe(401);
    expect(signIn.headers.get('x-request-id')).toBe('6bf92f3577b34da6a3ce929d0e0e4736');
    await new Promise((r) => setTimeout(r, 1000));
    // No span at all: neither of those traces' nor a new root trace from a span that lost its context.
    expect(receiver.spans.slice(sentBefore).map((s) => [s.scope, s.name, s.traceId])).toEqual([]);
  });

  it(
    'records no secret: no token, password, e-mail address (SQL values, query strings) or database ' + 'password',
    async () => {
      const family = season.families[0]!;
      // A sign-in: the e-mail is a parameter of the users query, the password is in the body.
      const signIn = await fetch(`${base}/api/v1/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: family.email, password: PASSWORD }),
      });
      expect(signIn.status).toBe(401);
      // The e-mail in a query string, as a support search would have it (refused here: not a field of this route).
      const search = await fetch(`${base}/api/v1/bookings/upcoming-bookings?q=${encodeURIComponent(family.email)}`, {
        headers: family.headers,
      });
      expect(search.status).toBe(400);
      const signInSpans = await traceOf(signIn.headers.get('x-request-id')!, hasAll);
      expect(signInSpans.filter((s) => s.scope === PG_SCOPE).length).toBeGreaterThan(0);
      const searchSpans = await traceOf(search.headers.get('x-request-id')!, (s) =>
        s.some((x) => x.scope === HTTP_SCOPE),
      );
      expect(searchSpans.find((s) => s.scope === HTTP_SCOPE)).toBeDefined();

      const token = family.headers.authorization.slice('Bearer '.length);
      // The test role's password is its name, which a span may carry as db.user: look for a URL's credentials.
      const db = new URL(season.databaseUrl);
      const sent = Buffer.concat(receiver.bodies).toString('latin1');
      for (const secret of [family.email, encodeURIComponent(family.email), PASSWORD, token, 'Bearer ']) {
        expect(sent.includes(secret), secret).toBe(false);
      }
      expect(sent.includes(`${db.username}:${db.password}@`)).toBe(false);
      for (const span of receiver.spans) {
        expect(Object.keys(span.attributes).filter((k) => /password|authorization|cookie/i.test(k))).toEqual([]);
        expect(span.attributes).not.toHaveProperty('db.postgresql.values');
        expect(span.attributes).not.toHaveProperty('url.query');
        for (const [key, value] of Object.entries(span.attributes)) {
          if (/url|target/.test(key)) expect(String(value), key).not.toContain('?');
        }
      }
    },
  );

  it("gives health checks and the answer lane's cached reads no span, and a trace-shaped request id", async () => {
    const health = await fetch(`${base}/api/v1/health`);
    expect(health.status).toBe(200);
    const healthId = health.headers.get('x-request-id')!;
    expect(healthId).toMatch(TRACE_ID);

    // The first read goes through Fastify (traced), the next ones of the same URL come from the lane.
    const reads: string[] = [];
    for (let i = 0; i < 4; i++) {
      const read = await fetch(`${base}${season.session.slotsUrl}`, { headers: season.families[0]!.headers });
      expect(read.status).toBe(200);
      reads.push(read.headers.get('x-request-id')!);
    }
    for (const id of reads) expect(id).toMatch(TRACE_ID);
    const first = await traceOf(reads[0]!, (s) => s.some((x) => x.scope === FASTIFY_SCOPE));
    expect(first.some((s) => s.attributes['http.route'] === '/api/v1/booking-slot/:id/available-slots')).toBe(true);

    // Give every batch time to arrive, then: nothing for the probe, nothing for at least one lane read.
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.spans.filter((s) => s.traceId === healthId)).toEqual([]);
    expect(receiver.spans.some((s) => /\/(health|ready)$/.test(String(s.attributes['url.path'] ?? '')))).toBe(false);
    const untraced = reads.slice(1).filter((id) => !receiver.spans.some((s) => s.traceId === id));
    expect(untraced.length).toBeGreaterThan(0);
  });

  it('loads nothing of OpenTelemetry unless the endpoint is set: only the tracing chunk imports it', () => {
    const dir = path.join(API_DIR, BUILD);
    const importers = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.mjs'))
      .filter((f) => /from "@opentelemetry\/|from "@fastify\/otel"/.test(fs.readFileSync(path.join(dir, f), 'utf8')));
    expect(importers).toHaveLength(1);
    expect(importers[0]).toMatch(/^tracing-/);
    const entry = fs.readFileSync(path.join(dir, 'start.mjs'), 'utf8');
    expect(entry).toMatch(/config\.OTEL_EXPORTER_OTLP_ENDPOINT \? \(await import\("\.\/tracing-/);
  });
});
