import { sql } from 'drizzle-orm';
import type { Db } from '../../apps/api/src/db/client';

type Headers = Record<string, string>;

/**
 * The admitted families who chose nothing in the line (issue 55's bench): each takes a hold on a
 * session it picks, as the wizard would, `thinkMs` after its admission (the wizard's steps take a
 * family that long at least), until nothing is free. Admitted families are read from the database
 * (what each would see on its own page); a taken session → another one.
 */
export async function holdAsAdmitted(opts: {
  db: Db;
  base: string;
  locationId: string;
  sessions: string[];
  headersOf: (userId: string) => Headers | undefined;
  until: number;
  concurrency: number;
  thinkMs: number;
}): Promise<{ attempts: number; granted: number }> {
  const pool = [...opts.sessions].sort(() => Math.random() - 0.5);
  const started = new Set<string>();
  const waiting: { userId: string; at: number }[] = [];
  let attempts = 0;
  let granted = 0;
  let done = false;
  const hold = async (userId: string) => {
    const headers = opts.headersOf(userId);
    if (!headers) return;
    while (pool.length > 0 && Date.now() < opts.until) {
      const slotId = pool.pop()!;
      attempts++;
      const res = await fetch(`${opts.base}/api/v1/bookings/reservation`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ slotId }),
      });
      await res.arrayBuffer();
      if (res.status === 201) return void granted++;
      // Another family has it: back to the pool only if it may come free again (not here: holds last).
      if (res.status !== 409) throw new Error(`hold answered ${res.status}`);
    }
  };
  const worker = async () => {
    while (!done || waiting.length > 0) {
      const next = waiting[0];
      if (next && next.at <= Date.now()) {
        waiting.shift();
        await hold(next.userId);
      } else await new Promise((r) => setTimeout(r, 20));
    }
  };
  const workers = Array.from({ length: opts.concurrency }, worker);
  while (Date.now() < opts.until) {
    const { rows } = await opts.db.execute(sql`
      select t.user_id, t.admitted_at from queue_tickets t
      where t.location_id = ${opts.locationId}::uuid and t.status = 'admitted' and t.wants is null
      order by t.admitted_at, t.position`);
    for (const r of rows) {
      const id = r.user_id as string;
      if (!started.has(id)) {
        started.add(id);
        waiting.push({ userId: id, at: Date.parse(r.admitted_at as string) + opts.thinkMs });
      }
    }
    const free = (
      await opts.db.execute(sql`select count(*)::int as n from slots s where s.location_id = ${opts.locationId}::uuid
        and s.kind = 'session' and not s.blocked and s.booking_id is null
        and (s.hold_expires_at is null or s.hold_expires_at <= now()) and s.start_at > now() + interval '1 hour'`)
    ).rows[0]!.n as number;
    if (free === 0 && waiting.length === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  done = true;
  await Promise.all(workers);
  return { attempts, granted };
}

/** Another location's available slots read at `perSecond` until `until`: latencies (ms) and non-200s. */
export async function readElsewhere(opts: {
  url: string;
  headers: Headers;
  perSecond: number;
  until: number;
}): Promise<{ latencies: number[]; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const pending: Promise<void>[] = [];
  const start = Date.now();
  for (let i = 0; Date.now() < opts.until; i++) {
    const due = start + (i * 1000) / opts.perSecond;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    pending.push(
      (async () => {
        const res = await fetch(opts.url, { headers: opts.headers });
        await res.arrayBuffer();
        // From the due time (open loop): a read sent late counts its wait.
        latencies.push(Date.now() - due);
        if (res.status !== 200) errors++;
      })(),
    );
  }
  await Promise.all(pending);
  return { latencies: latencies.sort((a, b) => a - b), errors };
}
