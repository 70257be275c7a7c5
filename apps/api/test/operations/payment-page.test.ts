import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPaymentPage } from '../../src/modules/payment-page/payment-page-check.service';
import { metricsRegistry } from '../../src/modules/operations/metrics';
import { readInventory } from '../../src/plugins/payment-page';
import { createPerson } from '../staff/staff-fixtures';
import { createTestApp, type TestApp } from '../helpers/test-app';

const ENTRY = '/assets/index-Ab12Cd34.js';
const CHUNK = '/assets/wizard-Ef56Gh78.js';
const page = (extra = '') =>
  `<!doctype html><html><head><script type="module" crossorigin ` +
  `src="${ENTRY}"></script>${extra}</head><body></body></html>`;

/**
 * PCI DSS 4.0.1 SAQ A (issue 51, decision 0098): the payment pages load only what
 * ops/payment-page-scripts.json lists (our bundles with SRI, Stripe.js), under a CSP without other
 * script hosts that reports its violations; the check fetches the served page over HTTP and alerts
 * the managers (e-mail and audit) on any change.
 */
describe('payment page: script inventory, CSP, SRI and the change check', () => {
  let t: TestApp;
  let dist: string;
  let base: string;
  let manager: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'kringle-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), page());
    fs.writeFileSync(path.join(dist, ENTRY), 'console.log("entry")');
    fs.writeFileSync(path.join(dist, CHUNK), 'console.log("wizard")');
    fs.mkdirSync(path.join(dist, '.vite'));
    fs.writeFileSync(path.join(dist, '.vite', 'route-preloads.json'), JSON.stringify({ '/create-booking': [CHUNK] }));
    t = await createTestApp({ SERVE_WEB: 'true', WEB_DIST_DIR: dist });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    manager = (await createPerson(t.db, true, { firstName: 'Mona', lastName: 'Ager' }, { role: 'manager' })).email;
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const alerts = async () =>
    (await t.db.execute(sql`select subject, text from mail_outbox where to_address = ${manager} order by created_at`))
      .rows as { subject: string; text: string }[];
  const auditEntries = async () =>
    (
      await t.db.execute(
        sql`select actor_kind, after from audit_entries where action = 'ops.payment_page_changed' order by seq`,
      )
    ).rows as { actor_kind: string; after: { findings: string[] } }[];

  it(
    "serves the payment page with the inventory's script-src, no analytics host, violation reports and SRI on our " +
      'bundles',
    async () => {
      const inventory = readInventory();
      const res = await fetch(`${base}/create-booking`);
      const csp = res.headers.get('content-security-policy')!;
      const scriptSrc = csp
        .split(';')
        .find((d) => d.trim().startsWith('script-src'))!
        .trim()
        .split(/\s+/)
        .slice(1);
      expect(scriptSrc.sort()).toEqual([...inventory.scriptSrc].sort());
      expect(csp).not.toContain('googletagmanager');
      expect(csp).not.toContain('google-analytics');
      expect(csp).toContain('report-uri /api/v1/csp-reports');
      expect(csp).toContain('report-to csp');
      expect(res.headers.get('reporting-endpoints')).toMatch(/^csp="http.*\/api\/v1\/csp-reports"$/);
      const html = await res.text();
      expect(html).toMatch(
        new RegExp(`<script type="module" crossorigin src="${ENTRY}" integrity="sha384-[A-Za-z0-9+/=]+"`),
      );
      expect(html).toMatch(new RegExp(`<link rel="modulepreload" crossorigin href="${CHUNK}" integrity="sha384-`));
      // Elsewhere the app keeps its analytics host.
      expect((await fetch(`${base}/bookings`)).headers.get('content-security-policy')).toContain('googletagmanager');
      // A photo purchase is a payment page too.
      expect((await fetch(`${base}/bookings/0b5e/photos`)).headers.get('content-security-policy')).toContain(
        'report-uri',
      );
    },
  );

  it('counts violation reports by directive, in both report formats, and answers 204', async () => {
    const before = (await metricsRegistry.getSingleMetricAsString('kringle_csp_violations_total')).match(
      /directive="script-src-elem"} (\d+)/,
    )![1];
    const old = await t.app.inject({
      method: 'POST',
      url: '/api/v1/csp-reports',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({
        'csp-report': {
          'effective-directive': 'script-src-elem',
          'blocked-uri': 'https://evil.example/skim.js?card=1',
        },
      }),
    });
    expect(old.statusCode).toBe(204);
    const api = await t.app.inject({
      method: 'POST',
      url: '/api/v1/csp-reports',
      headers: { 'content-type': 'application/reports+json' },
      payload: JSON.stringify([
        {
          type: 'csp-violation',
          body: { effectiveDirective: 'script-src-elem', blockedURL: 'https://evil.example/x.js' },
        },
      ]),
    });
    expect(api.statusCode).toBe(204);
    const after = (await metricsRegistry.getSingleMetricAsString('kringle_csp_violations_total')).match(
      /directive="script-src-elem"} (\d+)/,
    )![1];
    expect(Number(after) - Number(before)).toBe(2);
    const junk = await t.app.inject({
      method: 'POST',
      url: '/api/v1/csp-reports',
      headers: { 'content-type': 'application/csp-report' },
      payload: 'not json',
    });
    expect(junk.statusCode).toBe(204);
  });

  it('a first check of the page as inventoried finds nothing and alerts no one', async () => {
    const first = await checkPaymentPage(t.app, `${base}/create-booking`);
    expect(first.findings).toEqual([]);
    expect(first.alerted).toBe(false);
    expect(await alerts()).toEqual([]);
    expect(await auditEntries()).toEqual([]);
  });

  it('a script added to the page e-mails the managers and writes the audit trail', async () => {
    fs.writeFileSync(path.join(dist, 'index.html'), page('<script src="https://evil.example/skim.js"></script>'));
    const check = await checkPaymentPage(t.app, `${base}/create-booking`);
    expect(check.alerted).toBe(true);
    expect(check.findings).toEqual(
      expect.arrayContaining([
        'Script not in the inventory: https://evil.example/skim.js',
        'Script added: https://evil.example/skim.js',
      ]),
    );
    const [mail] = await alerts();
    expect(mail!.subject).toBe('Action needed: the payment page changed');
    expect(mail!.text).toContain('https://evil.example/skim.js');
    const [entry] = await auditEntries();
    expect(entry).toMatchObject({ actor_kind: 'system', after: { findings: check.findings } });
  });

  it('our bundle changed on the disk under its name, or its integrity removed, is found too', async () => {
    fs.writeFileSync(path.join(dist, 'index.html'), page());
    fs.writeFileSync(path.join(dist, ENTRY), 'console.log("entry"); steal()');
    const tampered = await checkPaymentPage(t.app, `${base}/create-booking`);
    expect(tampered.findings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Our script does not match its integrity: \/assets\/index-Ab12Cd34\.js/),
      ]),
    );
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><html><head><script type="module" integrity="" src="${ENTRY}"></script></head></html>`,
    );
    const bare = await checkPaymentPage(t.app, `${base}/create-booking`);
    expect(bare.findings).toContain(`Our script without Subresource Integrity: ${ENTRY}`);
    expect((await alerts()).length).toBe(3);
    expect((await auditEntries()).length).toBe(3);
  });
});
