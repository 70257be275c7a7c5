#!/usr/bin/env node
// Checks a fair-start draw (decision 0053, docs/fair-start.md) from what the API publishes:
//   node tools/check-queue-draw.mjs <locationId> [apiBase]      (apiBase: http://localhost:3000/api/v1)
// or npm run queue:check -- <locationId> [apiBase]
// 1. sha256(seed) must equal the seedHash published when the line opened;
// 2. sorting the entrants (ticket ids) by hex HMAC-SHA256(key = seed, message = ticket id) must give
//    the published order (position 1 first).
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
  process.exit(result.ok ? 0 : 1);
}
