import type { FastifyInstance } from 'fastify';
import { leadCutoffOf } from '../booking-lifecycle/booking-policy';
import { countAdmissions } from '../operations/operations.gauges';
import { findLine, lineCounts, queuedLocations, tryLockLine } from './queue.repository';
import {
  admitNext,
  type AdmittedWanting,
  claimDraw,
  closeLapsedAdmissions,
  freeSessions,
  placeLateArrivals,
  updateLineState,
  writeDraw,
} from './queue-admission.repository';
import { lapseGone } from './queue-presence.repository';
import { ensureOpen } from './queue.service';

/** The pass that draws a line and admits by stock (run by the job and the gate): apart from joining and reading. */

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'queueGate'>;

/**
 * Looking for families gone (QUEUE_RECONNECT_SECONDS, 300) reads every waiting ticket: a line's
 * passes on a process do it at most every LAPSE_CHECK_MS of the app's clock, not on every pass.
 */
const LAPSE_CHECK_MS = 5000;
const lapseCheckedAt = new Map<string, number>();
function lapseDue(locationId: string, now: Date): boolean {
  const last = lapseCheckedAt.get(locationId);
  if (last !== undefined && now.getTime() >= last && now.getTime() - last < LAPSE_CHECK_MS) return false;
  lapseCheckedAt.set(locationId, now.getTime());
  return true;
}

/**
 * One pass over one location's line: open it when its time comes, draw at the opening instant
 * (exactly once, whichever process gets there: a conditional UPDATE), then admit by stock.
 * Several processes may run it at once: the draw and admissions happen under the line's lock.
 * Returns whether anything a ticket shows changed.
 */
export async function passLocation(deps: Deps, locationId: string): Promise<boolean> {
  const { changed, wanting } = await admitPass(deps, locationId);
  // Outside the line's lock, once the admissions are committed: the hold path checks them (issue 55).
  if (wanting.length > 0 && deps.queueGate.holdWanted) await deps.queueGate.holdWanted(locationId, wanting);
  return changed;
}

async function admitPass(deps: Deps, locationId: string): Promise<{ changed: boolean; wanting: AdmittedWanting[] }> {
  const nothing = { changed: false, wanting: [] };
  const found = await findLine(deps.db, locationId);
  if (!found) return nothing;
  const line = await ensureOpen(deps, found);
  if (!line.hasLine || !line.salesOpenAt || line.closedAt) return nothing;
  const now = deps.clock.now();
  if (now < line.salesOpenAt) return nothing;
  let admitted = 0;
  let wanting: AdmittedWanting[] = [];
  const changedOrClosed = await deps.db.transaction(async (tx) => {
    if (!(await tryLockLine(tx, locationId))) return false;
    let changed = false;
    const claimed = await claimDraw(tx, locationId, now);
    if (claimed) {
      await writeDraw(tx, locationId, claimed);
      changed = true;
    } else if (!line.drawnAt) {
      return false;
    } else if ((await placeLateArrivals(tx, locationId)) > 0) changed = true;
    if ((await closeLapsedAdmissions(tx, locationId, now, deps.config.QUEUE_IDLE_SECONDS)) > 0) changed = true;
    // Counted from the opening at the earliest: a family who closed the tab before it has as long to come back.
    const reconnectMs = deps.config.QUEUE_RECONNECT_SECONDS * 1000;
    if (line.drawnAt && now.getTime() - line.drawnAt.getTime() >= reconnectMs && lapseDue(locationId, now))
      if ((await lapseGone(tx, locationId, now, deps.config.QUEUE_RECONNECT_SECONDS)) > 0) changed = true;
    const free = await freeSessions(tx, locationId, now, leadCutoffOf(deps.config, now));
    const counts = await lineCounts(tx, locationId, now);
    const current = (await findLine(tx, locationId))!;
    if (!current.paused && free > 0) {
      const room = Math.floor(deps.config.QUEUE_ADMIT_FACTOR * free) - counts.admittedNotHolding;
      const until = new Date(now.getTime() + deps.config.QUEUE_ADMIT_MINUTES * 60_000);
      ({ admitted, wanting } = await admitNext(tx, { locationId, count: room, now, until }));
      if (admitted > 0) changed = true;
    }
    // The line has done its work when nobody waits and no admission is still live (those just
    // admitted were waiting, and are admitted not holding now).
    const close =
      admitted === 0 &&
      counts.waiting === 0 &&
      counts.admittedNotHolding === 0 &&
      counts.holding === 0 &&
      now.getTime() - line.salesOpenAt!.getTime() > deps.config.QUEUE_ADMIT_MINUTES * 60_000;
    if (free !== current.freeSessions) changed = true;
    await updateLineState(tx, locationId, { freeSessions: free, bump: changed || close, close, now });
    return changed || close;
  });
  // Counted once committed (kringle_queue_admissions_total).
  if (admitted > 0) countAdmissions(locationId, admitted);
  return { changed: changedOrClosed, wanting };
}

/** The queue job's pass: every location with a line that may matter now. */
export async function queuePass(deps: Deps): Promise<void> {
  const now = deps.clock.now();
  for (const loc of await queuedLocations(deps.db)) {
    if (loc.closed) continue;
    if (now.getTime() < loc.salesOpenAt.getTime() - loc.opensMinutesBefore * 60_000) continue;
    if (await passLocation(deps, loc.locationId)) deps.queueGate.changed(loc.locationId);
  }
}
