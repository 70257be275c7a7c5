import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { paymentPageChecks } from '../../db/schema/platform';
import { insertAuditEntry, SYSTEM } from '../audit-trail/audit-entries.repository';
import { renderEmail } from '../mail/mail-layout';
import { enqueueMail } from '../mail/outbox.repository';
import { activeManagerEmails } from '../staff-accounts/staff-accounts.repository';
import { readInventory, type PaymentPageInventory } from '../../plugins/payment-page';

/**
 * PCI DSS 4.0.1 11.6.1 (decision 0098): fetch the payment page as a browser would, note every
 * script it names (with its integrity, and what the file hashes to now) and its security headers,
 * and compare them with the inventory (ops/payment-page-scripts.json) and with the last check.
 * Any difference e-mails every active manager and writes `ops.payment_page_changed` to the audit
 * trail, in one transaction with the check's row.
 */
export const SECURITY_HEADERS = [
  'content-security-policy',
  'reporting-endpoints',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'cross-origin-opener-policy',
  'strict-transport-security',
] as const;

export interface ObservedScript {
  src: string;
  /** The integrity attribute as served, or null. */
  integrity: string | null;
  /** sha384 of the file as fetched now (our own files only), or of an inline script's text. */
  sha384: string | null;
}

export interface ObservedPage {
  status: number;
  scripts: ObservedScript[];
  headers: Record<string, string | null>;
}

export interface CheckResult {
  id: string;
  findings: string[];
  alerted: boolean;
}

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'log'>;

const sha384 = (data: string | Buffer) => `sha384-${createHash('sha384').update(data).digest('base64')}`;
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1] ?? null;

async function fetchText(url: string): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(15_000) });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** The page's scripts: `<script src>`, inline `<script>`, and `<link rel="modulepreload">`. */
export async function observePage(url: string): Promise<ObservedPage> {
  const page = await fetchText(url);
  const html = page.body.toString('utf8');
  const found: { src: string; integrity: string | null; inline?: string }[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const src = attr(m[0], 'src');
    if (src) found.push({ src, integrity: attr(m[0], 'integrity') });
    else if (m[2]!.trim() && !/type="(application\/(ld\+)?json|importmap)"/i.test(m[1]!))
      found.push({ src: 'inline', integrity: null, inline: m[2]! });
  }
  for (const m of html.matchAll(/<link\b[^>]*>/gi))
    if (/\srel="modulepreload"/i.test(m[0]) && attr(m[0], 'href'))
      found.push({ src: attr(m[0], 'href')!, integrity: attr(m[0], 'integrity') });
  const origin = new URL(url).origin;
  const scripts: ObservedScript[] = [];
  for (const s of found) {
    const absolute = new URL(s.src === 'inline' ? url : s.src, url);
    let hash: string | null = s.inline !== undefined ? sha384(s.inline) : null;
    if (s.inline === undefined && absolute.origin === origin) {
      const file = await fetchText(absolute.href).catch(() => null);
      hash = file && file.status === 200 ? sha384(file.body) : null;
    }
    scripts.push({ src: s.src, integrity: s.integrity, sha384: hash });
  }
  const headers = Object.fromEntries(SECURITY_HEADERS.map((h) => [h, page.headers.get(h)]));
  return { status: page.status, scripts, headers };
}

const scriptSrcOf = (csp: string | null) =>
  (csp ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name === 'script-src')
    ?.slice(1) ?? null;

/** What differs from the inventory: unknown scripts, our scripts without (or with wrong) SRI, the CSP, the headers. */
export function inventoryFindings(page: ObservedPage, inventory: PaymentPageInventory, production: boolean): string[] {
  const findings: string[] = [];
  if (page.status !== 200) findings.push(`The payment page answered ${page.status}, not 200.`);
  for (const s of page.scripts) {
    const entry = inventory.scripts.find((e) => new RegExp(e.match).test(s.src));
    if (!entry) {
      findings.push(`Script not in the inventory: ${s.src === 'inline' ? `an inline script (${s.sha384})` : s.src}`);
      continue;
    }
    if (!entry.firstParty) continue;
    if (!s.integrity) findings.push(`Our script without Subresource Integrity: ${s.src}`);
    else if (s.sha384 && s.integrity !== s.sha384)
      findings.push(`Our script does not match its integrity: ${s.src} (served ${s.integrity}, file is ${s.sha384})`);
  }
  const scriptSrc = scriptSrcOf(page.headers['content-security-policy'] ?? null);
  if (!scriptSrc) findings.push('No Content-Security-Policy script-src on the payment page.');
  else if ([...scriptSrc].sort().join(' ') !== [...inventory.scriptSrc].sort().join(' '))
    findings.push(`CSP script-src is "${scriptSrc.join(' ')}", the inventory says "${inventory.scriptSrc.join(' ')}".`);
  if (!/report-(uri|to)\s/.test(page.headers['content-security-policy'] ?? ''))
    findings.push('The payment page CSP reports violations nowhere.');
  for (const [name, value] of Object.entries(inventory.headers))
    if (page.headers[name] !== value)
      findings.push(`Header ${name} is ${JSON.stringify(page.headers[name])}, not "${value}".`);
  if (production && !page.headers['strict-transport-security']) findings.push('No Strict-Transport-Security header.');
  return findings;
}

/** What changed since the last check: scripts added, gone or with other contents, and headers. */
export function changesSince(before: ObservedPage | null, now: ObservedPage): string[] {
  if (!before) return [];
  const changes: string[] = [];
  const key = (s: ObservedScript) => `${s.src} ${s.integrity ?? ''} ${s.sha384 ?? ''}`;
  const was = new Map(before.scripts.map((s) => [s.src, s]));
  const is = new Map(now.scripts.map((s) => [s.src, s]));
  for (const [src, s] of is)
    if (!was.has(src)) changes.push(`Script added: ${src}`);
    else if (key(was.get(src)!) !== key(s)) changes.push(`Script contents changed: ${src}`);
  for (const src of was.keys()) if (!is.has(src)) changes.push(`Script removed: ${src}`);
  for (const h of SECURITY_HEADERS)
    if ((before.headers[h] ?? null) !== (now.headers[h] ?? null)) changes.push(`Header ${h} changed.`);
  return changes;
}

const canonical = (page: ObservedPage) =>
  createHash('sha256')
    .update(JSON.stringify({ ...page, scripts: [...page.scripts].sort((a, b) => a.src.localeCompare(b.src)) }))
    .digest('hex');

/**
 * One check, under a transaction-scoped advisory lock (one process at a time, each seeing the
 * last one's row). `url` defaults to PUBLIC_URL and the inventory's checkPath.
 */
export async function checkPaymentPage(deps: Deps, url?: string): Promise<CheckResult> {
  const inventory = readInventory();
  const target = url ?? `${deps.config.PUBLIC_URL}${inventory.checkPath}`;
  let observed: ObservedPage;
  let findings: string[];
  try {
    observed = await observePage(target);
    findings = inventoryFindings(observed, inventory, deps.config.NODE_ENV === 'production');
  } catch (err) {
    observed = { status: 0, scripts: [], headers: {} };
    findings = [`The payment page could not be fetched: ${err instanceof Error ? err.message : String(err)}`];
  }
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('kringle:payment-page-check'))`);
    const { rows } = await tx.execute(
      sql`select observed from payment_page_checks where url = ${target} order by checked_at desc limit 1`,
    );
    const before = (rows[0]?.observed as ObservedPage | undefined) ?? null;
    const all = [...findings, ...(observed.status ? changesSince(before, observed) : [])];
    const [row] = await tx
      .insert(paymentPageChecks)
      .values({
        checkedAt: now,
        url: target,
        fingerprint: canonical(observed),
        observed: observed as unknown as Record<string, unknown>,
        findings: all,
        alerted: all.length > 0,
      })
      .returning({ id: paymentPageChecks.id });
    if (all.length > 0) {
      await insertAuditEntry(tx, {
        at: now,
        actor: SYSTEM,
        action: 'ops.payment_page_changed',
        bookingId: null,
        orderId: null,
        reason: `payment-page check: ${all.length} finding${all.length === 1 ? '' : 's'}`,
        before: before ? { scripts: before.scripts.map((s) => s.src) } : {},
        after: { check: row!.id, url: target, inventory: inventory.version, findings: all },
      });
      const mail = renderEmail({
        brandName: deps.config.BRAND_NAME,
        title: 'The payment page changed',
        intro: [
          `The weekly check of ` +
            `${target} found what the script inventory (ops/payment-page-scripts.json) does not list, ` +
            'or a change since the last check. If this was not a release you expected, treat it as an incident: ' +
            'a changed script on the payment page can skim card details (PCI DSS 11.6.1).',
        ],
        details: all.map((f, i) => ({ label: `${i + 1}`, value: f })),
        outro: 'Each check is kept in payment_page_checks and in the audit trail (ops.payment_page_changed).',
      });
      for (const to of await activeManagerEmails(tx))
        await enqueueMail(tx, { to, subject: 'Action needed: the payment page changed', ...mail });
      deps.log.warn({ url: target, findings: all }, 'payment page changed');
    }
    return { id: row!.id, findings: all, alerted: all.length > 0 };
  });
}

/** Whether a check is due: none of this URL within `everyMs` (any process may have run it). */
export async function checkDue(deps: Pick<Deps, 'db' | 'clock'>, url: string, everyMs: number): Promise<boolean> {
  const since = new Date(deps.clock.now().getTime() - everyMs).toISOString();
  const { rows } = await deps.db.execute(
    sql`select 1 from payment_page_checks where url = ${url} and checked_at > ${since}::timestamptz limit 1`,
  );
  return rows.length === 0;
}
