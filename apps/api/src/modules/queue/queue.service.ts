import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { QueueFairness, QueueTicket, QueueWants, StaffQueueSummary } from '@kringle/contracts/queue';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../db/client';
import { errors, notFound } from '../../lib/errors';
import { insertAuditEntry, type Actor } from '../audit-trail/audit-entries.repository';
import { listPackages, findSlotType } from '../catalogue/catalogue.repository';
import {
  drawnEntrants,
  entrantIds,
  findLine,
  insertTicket,
  lineCounts,
  lockLine,
  nextBackPosition,
  openLine,
  setPaused,
  soldSince,
  type LineRow,
} from './queue.repository';
import { findTicket, setWants, ticketWants, type TicketRow, watchedTickets } from './queue-tickets.repository';
import { insertTicketFrom, ticketsPerAddress } from './queue-address';
import { drawKeyOf } from './queue-draw';
import { rejoinAtBack, touchTickets } from './queue-presence.repository';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config'>;

export const seedHashOf = (seed: string) => createHash('sha256').update(seed, 'utf8').digest('hex');

/** When the line opens, or null when the location has none (no salesOpenAt, or opensMinutesBefore 0). */
export function lineOpensAt(line: Pick<LineRow, 'salesOpenAt' | 'opensMinutesBefore'>): Date | null {
  if (!line.salesOpenAt || line.opensMinutesBefore <= 0) return null;
  return new Date(line.salesOpenAt.getTime() - line.opensMinutesBefore * 60_000);
}

/** Opens the line (a fresh seed, its hash published) once its time has come; idempotent. */
export async function ensureOpen(deps: Deps, line: LineRow): Promise<LineRow> {
  const opensAt = lineOpensAt(line);
  if (!opensAt || !line.salesOpenAt || deps.clock.now() < opensAt) return line;
  if (line.hasLine && line.lineSalesOpenAt?.getTime() === line.salesOpenAt.getTime()) return line;
  const seed = randomBytes(32).toString('hex');
  await openLine(deps.db, {
    locationId: line.locationId,
    salesOpenAt: line.salesOpenAt,
    seed,
    seedHash: seedHashOf(seed),
  });
  return (await findLine(deps.db, line.locationId))!;
}

/** The line, open; 404 when the location has none or it has not opened yet. */
async function openLineOf(deps: Deps, locationId: string): Promise<LineRow> {
  const found = await findLine(deps.db, locationId);
  if (!found) throw notFound('That location');
  const line = await ensureOpen(deps, found);
  if (!line.hasLine) throw notFound("That location's waiting room");
  return line;
}

/** The admission rate over the last 5 minutes (families a second), or null before anyone was admitted. */
function ratePerSecond(line: LineRow, admittedRecently: number, now: Date): number | null {
  if (!line.drawnAt || admittedRecently === 0) return null;
  const windowMs = Math.min(5 * 60_000, now.getTime() - line.drawnAt.getTime());
  return admittedRecently / Math.max(windowMs / 1000, 1);
}

const emptyTicket = (line: LineRow) => ({
  position: null,
  ahead: null,
  estimatedWaitSeconds: null,
  admittedUntil: null,
  opensAt: line.salesOpenAt!.toISOString(),
  wants: null,
  reservation: null,
});

export function ticketView(line: LineRow, row: TicketRow | undefined, now: Date, rate: number | null): QueueTicket {
  if (!row) return { ...emptyTicket(line), status: line.closedAt ? 'closed' : 'before_open' };
  const base = { ...emptyTicket(line), wants: row.wants };
  const admittedUntil = row.admittedUntil?.toISOString() ?? null;
  if (row.status === 'admitted' && row.admittedUntil && row.admittedUntil > now) {
    const admitted = { position: row.position, ahead: 0, estimatedWaitSeconds: 0, admittedUntil };
    return { ...base, ...admitted, status: 'admitted', reservation: row.reservation };
  }
  if (row.status === 'lapsed') return { ...base, status: 'lapsed' };
  if (row.status !== 'waiting') return { ...base, status: 'closed', position: row.position, admittedUntil };
  if (!line.drawnAt || row.position === null) return { ...base, status: 'before_open' };
  const status = line.freeSessions === 0 ? 'sold_out' : 'waiting';
  const estimatedWaitSeconds = status === 'waiting' && rate ? Math.ceil((row.ahead + 1) / rate) : null;
  return { ...base, status, position: row.position, ahead: row.ahead, estimatedWaitSeconds };
}

async function rateOf(deps: Deps, line: LineRow, now: Date): Promise<number | null> {
  if (!line.drawnAt) return null;
  return ratePerSecond(line, (await lineCounts(deps.db, line.locationId, now)).admittedRecently, now);
}

/**
 * A new ticket, counted against its address's cap when one is in force (queue-address.ts); 429 past
 * it. Returns whether this call made it (false: the account was in the line already).
 */
async function insertJoin(
  deps: Deps,
  db: DbOrTx,
  line: LineRow,
  args: { locationId: string; userId: string; now: Date; position: number | null },
  address: string | null,
): Promise<boolean> {
  const id = randomUUID();
  // An entrant's key goes in with its ticket, so the draw writes none (decision 0117).
  const entrant = args.position === null && line.seed && line.salesOpenAt && args.now < line.salesOpenAt;
  const ticket = { ...args, id, drawKey: entrant ? drawKeyOf(line.seed!, id) : null };
  const limit = ticketsPerAddress(deps);
  if (address === null || limit === null) return insertTicket(db, ticket);
  const counted = (tx: DbOrTx) => insertTicketFrom(tx, { ...ticket, address, limit });
  // The pre-opening rush has no transaction of its own: the address's lock needs one.
  const { ok, made } = db === deps.db ? await deps.db.transaction(counted) : await counted(db);
  if (!ok) throw errors.queueAddressFull(60);
  return made;
}

/** 400 unless the session type is the location's and every package is offered for it (as the cart will check). */
async function assertWantsFit(deps: Deps, locationId: string, wants: QueueWants): Promise<void> {
  const type = await findSlotType(deps.db, wants.slotTypeId);
  if (!type || type.locationId !== locationId)
    throw errors.validation([{ path: 'wants.slotTypeId', message: 'Choose a session type of this location' }]);
  const offered = new Set((await listPackages(deps.db, type.slug)).map((p) => p.id));
  const wrong = wants.packages.findIndex((p) => !offered.has(p.id));
  if (wrong >= 0)
    throw errors.validation([
      { path: `wants.packages.${wrong}.id`, message: 'Choose a package offered for this session type' },
    ]);
}

/**
 * POST /queue/{locationId}: one place per account; again (another tab, device or process) → the
 * same one. `address` is where the join came from (queueAddressOf), null when no cap is in force.
 * `wants` (issue 55) is stored while the ticket waits; after its admission it is left as it was.
 */
export async function joinQueue(
  deps: Deps & Pick<FastifyInstance, 'queueGate'>,
  userId: string,
  locationId: string,
  address: string | null = null,
  wanted?: { wants: QueueWants; holdAddress: string | null },
): Promise<QueueTicket> {
  const line = await openLineOf(deps, locationId);
  const now = deps.clock.now();
  if (line.closedAt) return ticketView(line, await findTicket(deps.db, locationId, userId, now), now, null);
  if (wanted) await assertWantsFit(deps, locationId, wanted.wants);
  if (!line.drawnAt && line.salesOpenAt && now < line.salesOpenAt) {
    // The rush before the opening: one insert, no lock, no pass (a pass before the opening does
    // nothing). Every ticket reads "before_open" until the draw, whether this call made it or
    // another tab did, so the line read above is all the view needs.
    const made = await insertJoin(deps, deps.db, line, { locationId, userId, now, position: null }, address);
    if (!wanted) {
      // Joined again (another tab): its ticket may keep wants. A new ticket has none (the rush: no read).
      const wants = made ? null : await ticketWants(deps.db, locationId, userId);
      return { ...emptyTicket(line), status: 'before_open', wants };
    }
    await setWants(deps.db, { locationId, userId, ...wanted });
    return { ...emptyTicket(line), status: 'before_open', wants: wanted.wants };
  }
  const mine = await findTicket(deps.db, locationId, userId, now);
  if (mine?.status === 'lapsed') {
    // Back after its place passed on (issue 55): once, to the back of the line.
    const back = await deps.db.transaction(async (tx) => {
      await lockLine(tx, locationId);
      return rejoinAtBack(tx, locationId, userId, now);
    });
    if (back) deps.queueGate.nudge(locationId);
  } else if (mine) {
    await touchTickets(deps.db, locationId, [userId], now);
  } else {
    if (line.salesOpenAt && now >= line.salesOpenAt) {
      // After the opening: to the back, under the line's lock (the draw and other late joins wait their turn).
      await deps.db.transaction(async (tx) => {
        await lockLine(tx, locationId);
        const drawn = (await findLine(tx, locationId))!;
        await insertJoin(
          deps,
          tx,
          drawn,
          { locationId, userId, now, position: drawn.drawnAt ? await nextBackPosition(tx, locationId) : null },
          address,
        );
      });
    } else {
      // Before the opening the order does not matter: no lock, a single insert.
      await insertJoin(deps, deps.db, line, { locationId, userId, now, position: null }, address);
    }
    deps.queueGate.nudge(locationId);
  }
  if (wanted) await setWants(deps.db, { locationId, userId, ...wanted });
  const fresh = (await findLine(deps.db, locationId))!;
  const ticket = await findTicket(deps.db, locationId, userId, now);
  return ticketView(fresh, ticket, now, await rateOf(deps, fresh, now));
}

/** GET /queue/{locationId}: the family's ticket; 404 when not in the line. */
export async function getTicket(deps: Deps, userId: string, locationId: string): Promise<QueueTicket> {
  const line = await openLineOf(deps, locationId);
  const now = deps.clock.now();
  // A poll keeps the place (QUEUE_RECONNECT_SECONDS); a ticket that is not there touches nothing.
  await touchTickets(deps.db, locationId, [userId], now);
  const row = await findTicket(deps.db, locationId, userId, now);
  if (!row) throw notFound('Your place in this line');
  return ticketView(line, row, now, await rateOf(deps, line, now));
}

/** The tickets of the families watching one line on this process, for the live streams (one query). */
export async function ticketsByUser(
  deps: Deps,
  locationId: string,
  userIds: string[],
): Promise<{ version: number; tickets: Map<string, QueueTicket> } | null> {
  const line = await findLine(deps.db, locationId);
  if (!line?.hasLine) return null;
  const now = deps.clock.now();
  const rate = await rateOf(deps, line, now);
  const tickets = new Map<string, QueueTicket>();
  for (const row of await watchedTickets(deps.db, locationId, now, userIds))
    tickets.set(row.userId, ticketView(line, row, now, rate));
  return { version: line.version, tickets };
}

export async function lineVersion(deps: Deps, locationId: string): Promise<number | null> {
  const line = await findLine(deps.db, locationId);
  return line?.hasLine ? line.version : null;
}

/** GET /queue/{locationId}/fairness (public). */
export async function fairness(deps: Deps, locationId: string): Promise<QueueFairness> {
  const line = await openLineOf(deps, locationId);
  const drawn = Boolean(line.drawnAt);
  return {
    seedHash: line.seedHash!,
    seed: drawn ? line.seed : null,
    drawnAt: line.drawnAt?.toISOString() ?? null,
    entrants: drawn
      ? await drawnEntrants(deps.db, locationId)
      : await entrantIds(deps.db, locationId, line.salesOpenAt!),
  };
}

/** Staff: the line at a glance. */
export async function staffSummary(deps: Deps, locationId: string): Promise<StaffQueueSummary> {
  const line = await openLineOf(deps, locationId);
  const now = deps.clock.now();
  const counts = await lineCounts(deps.db, locationId, now);
  return {
    locationId,
    opensAt: line.salesOpenAt!.toISOString(),
    drawnAt: line.drawnAt?.toISOString() ?? null,
    paused: line.paused,
    closed: Boolean(line.closedAt),
    length: counts.waiting,
    admitted: counts.admittedNotHolding,
    holding: counts.holding,
    sold: line.drawnAt ? await soldSince(deps.db, locationId, line.drawnAt) : 0,
    freeSessions: line.freeSessions,
  };
}

/**
 * Pausing and resuming admissions are audited in the same transaction (issue 48 item 5), the location in before/after.
 */
export async function pauseQueue(
  deps: Deps,
  locationId: string,
  paused: boolean,
  actor: Actor,
): Promise<StaffQueueSummary> {
  await openLineOf(deps, locationId);
  await deps.db.transaction(async (tx) => {
    const changed = await setPaused(tx, locationId, paused);
    if (!changed) throw notFound("That location's waiting room");
    await insertAuditEntry(tx, {
      at: deps.clock.now(),
      actor,
      action: paused ? 'queue.paused' : 'queue.resumed',
      bookingId: null,
      orderId: null,
      reason: null,
      before: { locationId, paused: changed.wasPaused },
      after: { locationId, paused },
    });
  });
  return staffSummary(deps, locationId);
}
