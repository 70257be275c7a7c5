import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../db/client';
import { addressPlace } from '../../lib/address-place';
import { type NewTicket, newTicketValues } from './queue.repository';

/**
 * Waiting-room tickets per address (issue 48 item 13, API.md "Fair start, round two"): one ticket
 * per account made accounts the only cost of a place, so a line takes at most
 * QUEUE_TICKETS_PER_ADDRESS live tickets (waiting or admitted) from one address. The address is
 * counted by its place (an IPv6 client by its /64, decision 0074) and stored as a keyed hash, as
 * the hold cap stores it (decision 0069), never as itself.
 */

type Deps = Pick<FastifyInstance, 'config' | 'secrets'>;

/** The cap in force: none (null) with RATE_LIMIT_MODE=off, as every per-address limit (load tests, the suite). */
export const ticketsPerAddress = (deps: Pick<FastifyInstance, 'config'>): number | null =>
  deps.config.RATE_LIMIT_MODE === 'off' ? null : deps.config.QUEUE_TICKETS_PER_ADDRESS;

/** The stored form of where a join came from, or null when no cap is in force (nothing is stored then). */
export function queueAddressOf(deps: Deps, ip: string): string | null {
  if (ticketsPerAddress(deps) === null) return null;
  return createHmac('sha256', deps.secrets.appCheckSecret)
    .update(`queue-address:${addressPlace(ip)}`)
    .digest('base64url')
    .slice(0, 22);
}

/**
 * Joins the line from a counted address, in the caller's transaction: the address's lock (per line)
 * makes the count and the insert one step for every process, so racing joins from one address
 * across API processes never pass the cap. An account already in the line keeps its ticket.
 * Returns whether the ticket is there (false: the address's tickets are at the cap) and whether
 * this call made it.
 */
export async function insertTicketFrom(
  tx: DbOrTx,
  args: NewTicket & { address: string; limit: number },
): Promise<{ ok: boolean; made: boolean }> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext('kringle_queue_address'),
hashtext(${`${args.locationId} ${args.address}`}))`,
  );
  const { rows } = await tx.execute(sql`
    with mine as (select 1 from queue_tickets where location_id = ${args.locationId}::uuid and user_id =
    ${args.userId}::uuid),
    here as (
      select count(*)::int as n from queue_tickets
      where location_id = ${args.locationId}::uuid and join_address = ${args.address}
        and status not in ('closed', 'lapsed')),
    ins as (
      insert into queue_tickets (id, location_id, user_id, joined_at, draw_key, position, join_address)
      select ${newTicketValues(args)}, ${args.address}
      where not exists (select 1 from mine) and (select n from here) < ${args.limit}
      on conflict (location_id, user_id) do nothing
      returning 1)
    select exists (select 1 from mine) as had, exists (select 1 from ins) as inserted, (select n from here) as n`);
  const r = rows[0]!;
  // Not inserted under the cap: another tab of the same account got there first, which is its ticket.
  const made = Boolean(r.inserted);
  return { ok: Boolean(r.had) || made || (r.n as number) < args.limit, made };
}
