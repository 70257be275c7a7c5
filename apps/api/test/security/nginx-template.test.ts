import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';

/**
 * Issue 36, probe cases 1 and 2 behind the proxy: the nginx template that production installs
 * (docs/deploy.md) and the bench runs caps sockets per client address and cuts half-sent requests
 * as the API itself does when it is exposed directly (decision 0048), and never cuts a live stream
 * between its keep-alives. Read from the file, directive by directive.
 */
const TEMPLATE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../bench/nginx/kringle.conf.template',
);
const lines = fs
  .readFileSync(TEMPLATE, 'utf8')
  .split('\n')
  .map((l) => l.replace(/#.*/, '').trim())
  .filter(Boolean);
/** The arguments of every occurrence of a directive, in file order. */
const directive = (name: string) =>
  lines.filter((l) => l.split(/\s+/)[0] === name).map((l) => l.replace(/;$/, '').split(/\s+/).slice(1));
const seconds = (v: string) => Number(/^(\d+)s$/.exec(v)?.[1] ?? NaN);
const config = loadConfig({});

describe('the nginx template caps and times out what one address can hold', () => {
  it("counts connections per client address and refuses past the API's own per-address cap with 429", () => {
    const [zone] = directive('limit_conn_zone');
    expect(zone?.[0]).toBe('$binary_remote_addr');
    const zoneName = /^zone=([\w-]+):/.exec(zone?.[1] ?? '')?.[1];
    const [limit] = directive('limit_conn');
    expect(limit?.[0]).toBe(zoneName);
    expect(Number(limit?.[1])).toBe(config.MAX_CONNECTIONS_PER_ADDRESS);
    // Above the live streams one address may hold on one process, or nginx would refuse them first.
    expect(Number(limit?.[1])).toBeGreaterThan(config.LIVE_STREAMS_PER_ADDRESS);
    expect(directive('limit_conn_status')).toEqual([['429']]);
  });

  it('cuts a half-sent request as soon as the API would, and keeps live streams (a keep-alive every 25 s) open', () => {
    expect(seconds(directive('client_header_timeout')[0]![0]!)).toBeLessThanOrEqual(config.HEADERS_TIMEOUT_MS / 1000);
    expect(seconds(directive('client_body_timeout')[0]![0]!)).toBeLessThanOrEqual(config.HEADERS_TIMEOUT_MS / 1000);
    expect(seconds(directive('proxy_read_timeout')[0]![0]!)).toBeGreaterThan(25);
  });

  it('lets upstream sockets go idle before the API closes them, so nginx never reuses one being closed', () => {
    // The first keepalive_timeout is the upstream block's (to the API), the second the clients'.
    const [upstream] = directive('keepalive_timeout');
    expect(seconds(upstream![0]!) * 1000).toBeLessThan(config.KEEP_ALIVE_TIMEOUT_MS);
    // A stopping process drains longer than this, so nginx has dropped its idle sockets first (decision 0093).
    expect(seconds(upstream![0]!) * 1000).toBeLessThan(config.SHUTDOWN_DRAIN_MS);
  });
});
