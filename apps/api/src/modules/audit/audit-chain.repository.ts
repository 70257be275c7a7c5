import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/**
 * The audit trail's hash chain (decision 0078). A sealing job links entries into `audit_chain`
 * after they are written, one sealer at a time; each link is
 * `sha256(previous link's hash || the entry's canonical text)`, link 1 starting from 32 zero bytes.
 * The hold statements write entries and never touch the chain, so a hold waits on no chain head.
 */

export const GENESIS_HASH = '0'.repeat(64);

/** Distinct from the migrations' lock (7426001) and the jobs' own. */
const SEAL_LOCK = 7426078;

/**
 * Entries that committed late (a transaction that took its seq, then others committed past it)
 * are still found this far behind the newest sealed seq. One further back stays unsealed and
 * `audit:verify` reports it.
 */
const LOOKBACK = 10_000;

/**
 * What a link covers: every column but `actor_email` (blanked when an account is deleted, the
 * one change the trail allows; the actor's id stays covered). The time in UTC to the microsecond,
 * whatever the session's time zone; jsonb's text is canonical (keys sorted, one spacing). A
 * column added to audit_entries later is not covered until this list (and a new chain version)
 * says so.
 */
const CONTENT = sql`jsonb_build_array(e.id, to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
  e.actor_kind, e.actor_id,
  e.action, e.booking_id, e.order_id, e.reason, e.before, e.after, e.seq, e.slot_id, e.season_version)::text`;

export function linkHash(prevHashHex: string, content: string): string {
  return createHash('sha256').update(Buffer.from(prevHashHex, 'hex')).update(content, 'utf8').digest('hex');
}

/** Seals up to `limit` unsealed entries in seq order; the number sealed (0 when another process is sealing). */
export async function sealAuditEntries(db: Db, limit = 2000): Promise<number> {
  return db.transaction(async (tx) => {
    const lock = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(${SEAL_LOCK}) as ok`);
    if (!lock.rows[0]!.ok) return 0;
    // Ordered by the column, not by the text alias of the same name (which would put 99 after 100).
    const head = (
      await tx.execute<{ link: string; hash: string; top: string }>(sql`
        select c.link::text, encode(c.hash, 'hex') as hash, (select max(entry_seq) from audit_chain)::text as top
          from audit_chain c order by c.link desc limit 1`)
    ).rows[0];
    const entries = (
      await tx.execute<{ id: string; seq: string; content: string }>(sql`
        select e.id, e.seq::text as seq, ${CONTENT} as content from audit_entries e
         where e.seq > ${head?.top ?? '0'}::bigint - ${LOOKBACK}
           and not exists (select 1 from audit_chain c where c.entry_seq = e.seq)
         order by e.seq limit ${limit}`)
    ).rows;
    if (!entries.length) return 0;
    let link = BigInt(head?.link ?? 0);
    let prev = head?.hash ?? GENESIS_HASH;
    const links: string[] = [];
    const prevs: string[] = [];
    const hashes: string[] = [];
    for (const e of entries) {
      link += 1n;
      const hash = linkHash(prev, e.content);
      links.push(link.toString());
      prevs.push(prev);
      hashes.push(hash);
      prev = hash;
    }
    await tx.execute(sql`
      insert into audit_chain (link, entry_id, entry_seq, prev_hash, hash)
      select l, id, seq, decode(p, 'hex'), decode(h, 'hex')
        from unnest(${sql.param(links)}::bigint[], ${sql.param(entries.map((e) => e.id))}::uuid[],
        ${sql.param(entries.map((e) => e.seq))}::bigint[],
                    ${sql.param(prevs)}::text[], ${sql.param(hashes)}::text[]) as t(l, id, seq, p, h)`);
    return entries.length;
  });
}

export interface ChainBreak {
  link: string;
  entryId: string;
  seq: string;
  action: string | null;
  at: string | null;
  problem: string;
}

export interface ChainReport {
  links: number;
  /** The newest link's number and hash: kept outside the database, it shows a wholesale rewrite. */
  head: { link: string; hash: string } | null;
  broken: ChainBreak | null;
  unsealed: { count: number; oldestSeq: string | null };
}

const PAGE = 5000;

/** Recomputes the whole chain, in link order, and stops at the first broken link. */
export async function verifyAuditChain(db: Db): Promise<ChainReport> {
  let expected = 1n;
  let prev = GENESIS_HASH;
  let head: ChainReport['head'] = null;
  let broken: ChainBreak | null = null;
  let count = 0;
  page: for (;;) {
    const rows = (
      await db.execute<{
        link: string;
        entry_id: string;
        entry_seq: string;
        prev: string;
        hash: string;
        seq: string | null;
        action: string | null;
        at: string | null;
        content: string | null;
      }>(sql`
        select c.link::text, c.entry_id, c.entry_seq::text, encode(c.prev_hash, 'hex') as prev, encode(c.hash, 'hex')
        as hash,
               e.seq::text as seq, e.action, to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
               case when e.id is null then null else ${CONTENT} end as content
          from audit_chain c left join audit_entries e on e.id = c.entry_id
         where c.link >= ${expected.toString()}::bigint order by c.link limit ${PAGE}`)
    ).rows;
    for (const r of rows) {
      const at = (problem: string): ChainBreak => ({
        link: r.link,
        entryId: r.entry_id,
        seq: r.entry_seq,
        action: r.action,
        at: r.at,
        problem,
      });
      if (BigInt(r.link) !== expected)
        broken = at(`link ${expected} is missing (the chain goes from ${expected - 1n} to ${r.link})`);
      else if (r.prev !== prev)
        broken = at(`its previous hash is not link ${expected - 1n}'s (a link was changed or replaced)`);
      else if (r.content === null) broken = at('its entry is gone (deleted)');
      else if (r.seq !== r.entry_seq) broken = at(`its entry's seq is ${r.seq}, not ${r.entry_seq}`);
      else if (linkHash(prev, r.content) !== r.hash) broken = at('its entry was changed after it was sealed');
      if (broken) break page;
      count++;
      prev = r.hash;
      head = { link: r.link, hash: r.hash };
      expected += 1n;
    }
    if (rows.length < PAGE) break;
  }
  const unsealed = (
    await db.execute<{ count: number; oldest: string | null }>(sql`
      select count(*)::int as count, min(e.seq)::text as oldest from audit_entries e
       where not exists (select 1 from audit_chain c where c.entry_id = e.id)`)
  ).rows[0]!;
  return { links: count, head, broken, unsealed: { count: unsealed.count, oldestSeq: unsealed.oldest } };
}
