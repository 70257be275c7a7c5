import fs from 'node:fs';
import pg from 'pg';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs } from '../../src/jobs/runner';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { bindTimer, SeriesTimer } from '../../src/modules/operations/http-metrics';
import { httpRequestDuration, metricsRegistry } from '../../src/modules/operations/metrics';
import { countAdmissions } from '../../src/modules/operations/operations.gauges';
import { startMetricsServer, type MetricsServer } from '../../src/modules/operations/metrics-server';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z');

/** One sample's value in the Prometheus text, by its name and labels exactly as printed (0 when absent). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('metrics (GET /metrics on its own listener)', () => {
  let t: TestApp;
  let metrics: MetricsServer;
  let holly: TestCustomer;
  let noel: TestCustomer;
  let locationId: string;
  let slotsUrl: string;
  let sessionId: string;
  const scrape = async () => (await fetch(metrics.url)).text();

  beforeAll(async () => {
    const clock = new ManualClock(NOW);
    t = await createTestApp({}, clock);
    await loadSeason(t.db, demoSeason(NOW), NOW);
    metrics = await startMetricsServer('127.0.0.1', 0);
    holly = await createCustomer(t.db, t.app.idTokens);
    noel = await createCustomer(t.db, t.app.idTokens);
    const loc = (await t.app.inject({ url: '/api/v1/common/locations', headers: holly.headers })).json().items[0];
    locationId = loc.id;
    slotsUrl = `/api/v1/booking-slot/${locationId}/available-slots?date=2026-12-03&slotTypeId=${loc.slotTypes[0].id}`;
    const items = (await t.app.inject({ url: slotsUrl, headers: holly.headers })).json().items as {
      id: string;
      kind: string;
    }[];
    sessionId = items.find((s) => s.kind === 'session')!.id;
  });
  afterAll(async () => {
    await metrics.close();
    await t.close();
  });

  it('serves the Prometheus text format, every metric with HELP and TYPE, and 404 for anything else', async () => {
    const res = await fetch(metrics.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const names = [
      'http_request_duration_seconds',
      'kringle_holds_total',
      'kringle_payments_total',
      'kringle_refunds_total',
      'kringle_webhook_lag_seconds',
      'kringle_outbox_pending',
      'kringle_job_lag_seconds',
      'kringle_queue_waiting',
      'kringle_queue_admissions_total',
      'kringle_db_pool_connections',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ];
    for (const name of names) {
      expect(text, name).toMatch(new RegExp(`^# HELP ${name} \\S`, 'm'));
      expect(text, name).toMatch(new RegExp(`^# TYPE ${name} (counter|gauge|histogram|summary)$`, 'm'));
    }
    // Every sample line parses as name{labels} value, and each metric family was declared before its samples.
    const declared = new Set<string>();
    for (const line of text.split('\n').filter(Boolean)) {
      const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (type) declared.add(type[1]!);
      if (line.startsWith('#')) continue;
      const m =
        /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/.exec(
          line,
        );
      expect(m, line).not.toBeNull();
      const family = m![1]!.replace(/_(bucket|sum|count)$/, '');
      expect(declared.has(m![1]!) || declared.has(family), line).toBe(true);
    }
    expect((await fetch(metrics.url.replace('/metrics', '/other'))).status).toBe(404);
  });

  it("is not on the public port, not even as the web app's page", async () => {
    for (const url of ['/metrics', '/api/v1/metrics']) expect((await t.app.inject({ url })).statusCode, url).toBe(404);
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'kringle-metrics-web-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    const web = await createTestApp({ SERVE_WEB: 'true', WEB_DIST_DIR: dist }, undefined, undefined, {
      databaseUrl: t.databaseUrl,
    });
    try {
      expect((await web.app.inject({ url: '/some/page' })).statusCode).toBe(200);
      for (const url of ['/metrics', '/metrics?x=1', '/api/v1/metrics'])
        expect((await web.app.inject({ url })).statusCode, url).toBe(404);
    } finally {
      await web.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it('counts a hold granted and a hold refused because the session is taken', async () => {
    const before = await scrape();
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/bookings/reservation',
          headers: holly.headers,
          payload: { slotId: sessionId },
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/bookings/reservation',
          headers: noel.headers,
          payload: { slotId: sessionId },
        })
      ).statusCode,
    ).toBe(409);
    const after = await scrape();
    expect(
      sample(after, 'kringle_holds_total{outcome="granted"}') -
        sample(before, 'kringle_holds_total{outcome="granted"}'),
    ).toBe(1);
    expect(
      sample(after, 'kringle_holds_total{outcome="taken"}') - sample(before, 'kringle_holds_total{outcome="taken"}'),
    ).toBe(1);
  });

  it('labels requests by route template, never by a raw path or id', async () => {
    const hold = await t.app.inject({
      method: 'POST',
      url: '/api/v1/bookings/reservation',
      headers: noel.headers,
      payload: { slotId: sessionId },
    });
    const id = '6f1c2c8e-2b7a-4c51-9d3e-0a1b2c3d4e5f';
    await t.app.inject({ url: `/api/v1/bookings/reservation/${id}`, headers: noel.headers });
    await t.app.inject({ url: `/no/such/${id}` });
    const text = await scrape();
    expect(hold.statusCode).toBe(409);
    expect(text).toContain(
      'http_request_duration_seconds_count{route="/api/v1/bookings/reservation/:id",method="GET",status_code="404"}',
    );
    expect(text).toContain(
      'http_request_duration_seconds_count{route="/api/v1/bookings/reservation",method="POST",status_code="409"}',
    );
    expect(text).toContain('route="unmatched",method="GET",status_code="404"');
    for (const raw of [id, locationId, sessionId, '/no/such']) expect(text).not.toContain(raw);
  });

  it(
    "records on prom-client's own series in place (no allocation per answer), the same figures as its " + 'observe',
    async () => {
      const fast = bindTimer('/probe/fast', 'GET', 200);
      // A prom-client upgrade that moves its records makes this the dearer child: this test says so.
      expect(fast).toBeInstanceOf(SeriesTimer);
      const child = httpRequestDuration.labels('/probe/child', 'GET', '200');
      for (const seconds of [0, 0.0004, 0.003, 0.01, 0.2, 7, 20]) {
        fast.observe(seconds);
        child.observe(seconds);
      }
      const text = await metricsRegistry.getSingleMetricAsString('http_request_duration_seconds');
      const of = (route: string) =>
        text
          .split('\n')
          .filter((l) => l.includes(`route="${route}"`))
          .map((l) => l.replace(route, 'R'));
      expect(of('/probe/fast')).toHaveLength(16);
      expect(of('/probe/fast')).toEqual(of('/probe/child'));
    },
  );

  it('times the answer lane under the route template too', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const series =
      'http_request_duration_seconds_count' +
      '{route="/api/v1/booking-slot/:id/available-slots",method="GET",status_code="200"}';
    const before = sample(await scrape(), series);
    const served = t.app.answerLane.served;
    for (let i = 0; i < 3; i++) expect((await fetch(base + slotsUrl, { headers: holly.headers })).status).toBe(200);
    expect(t.app.answerLane.served).toBeGreaterThan(served);
    expect(sample(await scrape(), series) - before).toBe(3);
  });

  it("reports each job's lag: 0 while on time, growing while a pass hangs", async () => {
    let release!: () => void;
    const hung = new Promise<void>((resolve) => (release = resolve));
    const jobs = startJobs(
      [
        { name: 'probe-on-time', intervalMs: 20, run: async () => {} },
        { name: 'probe-hung', intervalMs: 20, run: () => hung },
      ],
      t.app.log,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const text = await scrape();
    release();
    await jobs.stop();
    expect(sample(text, 'kringle_job_lag_seconds{job="probe-on-time"}')).toBeLessThan(0.1);
    expect(sample(text, 'kringle_job_lag_seconds{job="probe-hung"}')).toBeGreaterThan(0.1);
  });

  it("shows a fair-start line's families placed and waiting, and its admissions, by the location's slug", async () => {
    const owner = new pg.Client({ connectionString: t.ownerUrl });
    await owner.connect();
    try {
      const { rows } = await owner.query<{ slug: string }>(
        `update locations set queue_opens_minutes_before = 30 where id = $1 returning slug`,
        [locationId],
      );
      const slug = rows[0]!.slug;
      // Placed (drawn) and waiting, placed and admitted, and one not yet drawn: only the first counts as waiting.
      await owner.query(
        `insert into queue_tickets (location_id, user_id, status, position) values ($1, $2, 'waiting', 1), ($1, $3, ` +
          `'admitted', 2), ($1, $4, 'waiting', null)`,
        [locationId, holly.id, noel.id, (await createCustomer(t.db, t.app.idTokens)).id],
      );
      countAdmissions(locationId, 2);
      const text = await scrape();
      expect(sample(text, `kringle_queue_waiting{location="${slug}"}`)).toBe(1);
      expect(sample(text, `kringle_queue_admissions_total{location="${slug}"}`)).toBe(2);
      countAdmissions(locationId, 1);
      expect(sample(await scrape(), `kringle_queue_admissions_total{location="${slug}"}`)).toBe(3);
    } finally {
      await owner.end();
    }
  });

  it('shows a pending mail in the outbox gauge, read at scrape time', async () => {
    const before = sample(await scrape(), 'kringle_outbox_pending{kind="mail"}');
    await t.pool.query(
      `insert into mail_outbox (to_address, subject, html, text) values ('holly@example.test', 'Hello', '<p>Hi</p>', ` +
        `'Hi')`,
    );
    expect(sample(await scrape(), 'kringle_outbox_pending{kind="mail"}')).toBe(before + 1);
    const pool = await metricsRegistry.getSingleMetricAsString('kringle_db_pool_connections');
    expect(pool).toMatch(/kringle_db_pool_connections\{state="max"\} \d+/);
  });
});
