#!/usr/bin/env node
// Checks a fair-start draw (decision 0053, docs/fair-start.md) from what the API publishes:
//   node tools/check-queue-draw.mjs <locationId> [apiBase]      (apiBase: http://localhost:3000/api/v1)
// or npm run queue:check -- <locationId> [apiBase]
// 1. sha256(seed) must equal the seedHash published when the line opened;
// 2. sorting the entrants (ticket ids) by hex HMAC-SHA256(key = seed, message = ticket id) must give
//    the published order (position 1 first);
// 3. the drop's report (/report, issue 55) must publish the same seed, hash and entrants, its minutes
//    in order with a positive count each, and p50 <= p95.
import { createHash, createHmac } from 'node:crypto';

export function drawOrder(seed, ids) {
  const keyed = ids.map((id) => ({ id, key: createHmac('sha256', seed).update(id).digest('hex') }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : 1));
  return keyed.map((k) => k.id);
}

export function checkDraw(fairness) {
  if (!fairness.seed) return { ok: false, reason: 'the draw has not happened yet (seed not published)' };
  const hash = createHash('sha256').update(fairness.seed, 'utf8').digest('hex');
  if (hash !== fairness.seedHash)
    return { ok: false, reason: `sha256(seed) = ${hash}, but the published seedHash is ${fairness.seedHash}` };
  const recomputed = drawOrder(fairness.seed, [...fairness.entrants].sort());
  const first = recomputed.findIndex((id, i) => id !== fairness.entrants[i]);
  if (first !== -1)
    return {
      ok: false,
      reason: `position ${first + 1}: published ${fairness.entrants[first]}, recomputed ${recomputed[first]}`,
    };
  return { ok: true, reason: `${recomputed.length} entrants in the published order; seed matches its hash` };
}

export function checkReport(report, fairness) {
  if (report.seed !== fairness.seed || report.seedHash !== fairness.seedHash)
    return { ok: false, reason: 'the report and the fairness endpoint publish different seeds' };
  if (report.entrants.join() !== fairness.entrants.join())
    return { ok: false, reason: 'the report and the fairness endpoint publish different entrants' };
  const minutes = report.admittedByMinute.map((m) => m.minute);
  const wellFormed = minutes.every((m, i) => /^\d{4}-\d\d-\d\dT\d\d:\d\d$/.test(m) && (i === 0 || m > minutes[i - 1]));
  if (!wellFormed || report.admittedByMinute.some((m) => !(m.admitted > 0)))
    return { ok: false, reason: 'admittedByMinute is not one positive count a minute, in order' };
  const { p50, p95 } = report.heldWithinSeconds;
  if (p50 !== null && p95 !== null && p50 > p95) return { ok: false, reason: `held within: p50 ${p50} > p95 ${p95}` };
  const admitted = report.admittedByMinute.reduce((n, m) => n + m.admitted, 0);
  return {
    ok: true,
    reason:
      `report agrees; ${admitted} admitted over ${minutes.length} minute(s), held within p50 ${p50} s, ` +
      `p95 ${p95} s; sold out ${report.soldOutAt ?? 'not yet'}${report.final ? ' (final)' : ''}`,
  };
}

const [locationId, base = 'http://localhost:3000/api/v1'] = process.argv.slice(2);
if (import.meta.url === `file://${process.argv[1]}`) {
  if (!locationId) {
    console.error('usage: node tools/check-queue-draw.mjs <locationId> [apiBase]');
    process.exit(2);
  }
  const res = await fetch(`${base.replace(/\/$/, '')}/queue/${locationId}/fairness`);
  if (!res.ok) {
    console.error(`GET fairness: ${res.status} ${await res.text()}`);
    process.exit(2);
  }
  const fairness = await res.json();
  const result = checkDraw(fairness);
  console.log(`${result.ok ? 'OK' : 'FAILED'}: ${result.reason}`);
  console.log(`seedHash ${fairness.seedHash}\nseed     ${fairness.seed}\ndrawnAt  ${fairness.drawnAt}`);
  let reportOk = true;
  if (result.ok) {
    const reportRes = await fetch(`${base.replace(/\/$/, '')}/queue/${locationId}/report`);
    const report = reportRes.ok ? checkReport(await reportRes.json(), fairness) : null;
    reportOk = Boolean(report?.ok);
    console.log(
      report ? `${report.ok ? 'OK' : 'FAILED'}: ${report.reason}` : `FAILED: GET report: ${reportRes.status}`,
    );
  }
  process.exit(result.ok && reportOk ? 0 : 1);
}
