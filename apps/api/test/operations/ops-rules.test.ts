import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { metricNames } from '../../src/modules/operations/metrics';
// The scrape-time gauges register themselves on import (app.ts imports them in the API).
import '../../src/modules/operations/operations.gauges';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const OPS = path.join(REPO_ROOT, 'ops');

const promtool = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => fs.existsSync(p));
/** CI installs prometheus (.ci/run): there a missing promtool is a broken setup, and must not pass as a skip. */
const inCi = ['true', '1'].includes(process.env.CI ?? '');

function run(args: string[]): { status: number | null; output: string } {
  if (!promtool)
    throw new Error(
      'promtool is not installed, and CI=true requires the alert rule tests to run: apt-get install -y prometheus',
    );
  const result = spawnSync(promtool, args, { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe.skipIf(!promtool && !inCi)('ops/: the Prometheus rules and scrape config (promtool)', () => {
  it('passes promtool check rules ops/alerts.yml', () => {
    const { status, output } = run(['check', 'rules', 'ops/alerts.yml']);
    expect(status, output).toBe(0);
  });

  it('passes promtool test rules ops/alerts.test.yml (each alert firing and not firing)', () => {
    const { status, output } = run(['test', 'rules', 'ops/alerts.test.yml']);
    expect(status, output).toBe(0);
  });

  it('passes promtool check config ops/prometheus.yml', () => {
    const { status, output } = run(['check', 'config', 'ops/prometheus.yml']);
    expect(status, output).toBe(0);
  });
});

/** The metric names a PromQL expression reads (ours and the Node defaults; a histogram by its base name). */
const namesIn = (expr: string) =>
  [...expr.matchAll(/\b((?:kringle|http|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) =>
    m[1]!.replace(/_(bucket|count|sum)$/, ''),
  );

describe('ops/: alerts and dashboard read only metrics the API serves', () => {
  it('has a unit test case, firing and not firing, for every alert', () => {
    const alerts = [...fs.readFileSync(path.join(OPS, 'alerts.yml'), 'utf8').matchAll(/- alert: (\w+)/g)].map(
      (m) => m[1]!,
    );
    const tests = fs.readFileSync(path.join(OPS, 'alerts.test.yml'), 'utf8');
    expect(alerts).toHaveLength(8);
    for (const alert of alerts) {
      const cases = tests
        .split(`alertname: ${alert}\n`)
        .slice(1)
        .map((rest) => rest.split('\n')[0]!.trim());
      expect(cases, alert).toContain('exp_alerts: []');
      expect(
        cases.some((c) => c === 'exp_alerts:'),
        alert,
      ).toBe(true);
    }
  });

  it(
    'queries, in the alerts and the Grafana dashboard, only metrics in the registry, and shows every one of ' + 'ours',
    async () => {
      const known = new Set(await metricNames());
      const dashboard = JSON.parse(fs.readFileSync(path.join(OPS, 'grafana-dashboard.json'), 'utf8')) as {
        panels: { title: string; targets: { expr: string }[] }[];
      };
      const queried = new Set<string>();
      for (const panel of dashboard.panels) {
        expect(panel.targets.length, panel.title).toBeGreaterThan(0);
        for (const { expr } of panel.targets) {
          const names = namesIn(expr);
          expect(names.length, panel.title).toBeGreaterThan(0);
          for (const name of names) {
            expect(known.has(name), `${panel.title}: ${name}`).toBe(true);
            queried.add(name);
          }
        }
      }
      for (const name of known)
        if (name.startsWith('kringle_') || name.startsWith('http_'))
          expect(queried.has(name), `no panel for ${name}`).toBe(true);
      for (const name of namesIn(fs.readFileSync(path.join(OPS, 'alerts.yml'), 'utf8')))
        expect(known.has(name), `alerts.yml: ${name}`).toBe(true);
    },
  );
});
