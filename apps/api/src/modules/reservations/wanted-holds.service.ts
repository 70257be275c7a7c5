import type { AdmittedWanting } from '../queue/queue-admission.repository';
import { AppError } from '../../lib/app-error';
import { leadCutoffOf } from '../booking-lifecycle/booking-policy';
import { holdAddressLimit } from '../sessions/hold-address';
import { createReservation } from './reservations.service';
import { freeSessionsAt, matchesWants, type FreeSession } from './wanted-sessions.repository';

type Deps = Parameters<typeof createReservation>[0];

/** Holds asked side by side: each family has a session of its own in the plan, so order is kept. */
const SIDE_BY_SIDE = 8;

/**
 * Holds, for each family just admitted with `wants` (issue 55, decision 0116), the first free
 * session matching them, through the ordinary hold: the queue gate, one hold per family, the
 * per-address cap and the one-statement race all apply. The plan gives the sessions out in line
 * order from one read of what is free (so the first in line gets the earliest), then the holds go
 * side by side. A planned session taken meanwhile (a family of another process's pass) → the next
 * one free that matches; none left, or a refusal of the family itself (a hold elsewhere, say) → it
 * was admitted to choose, as any family is. Never throws: the line's pass goes on.
 */
export async function holdWanted(deps: Deps, locationId: string, wanting: AdmittedWanting[]): Promise<void> {
  const now = deps.clock.now();
  const free = await freeSessionsAt(deps.db, { locationId, now, leadCutoff: leadCutoffOf(deps.config, now) });
  const given = new Set<string>();
  const plan = wanting.map((family) => {
    const session = free.find((s) => !given.has(s.id) && matchesWants(s, family.wants));
    if (session) given.add(session.id);
    return { family, session };
  });
  const queue = plan.filter((p) => p.session);
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      await holdPlanned(deps, locationId, next.family, next.session!, free, given);
  };
  await Promise.all(Array.from({ length: Math.min(SIDE_BY_SIDE, queue.length) }, worker));
}

async function holdPlanned(
  deps: Deps,
  locationId: string,
  family: AdmittedWanting,
  planned: FreeSession,
  free: FreeSession[],
  given: Set<string>,
): Promise<void> {
  const from = { address: family.holdAddress, limit: holdAddressLimit(deps) };
  try {
    for (let session: FreeSession | undefined = planned; session;) {
      try {
        await createReservation(deps, family.userId, { slotId: session.id }, from);
        return;
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'SLOT_UNAVAILABLE') throw err;
        // Taken meanwhile: the next free one that matches and nobody in this plan was given.
        session = free.find((s) => !given.has(s.id) && matchesWants(s, family.wants));
        if (session) given.add(session.id);
      }
    }
  } catch (err) {
    // The family's own refusal (HOLD_LIMIT, RATE_LIMITED…) is an answer; anything else is a fault to see.
    const refused = err instanceof AppError && err.statusCode < 500;
    deps.log[refused ? 'info' : 'error'](
      { err, userId: family.userId, locationId },
      'queue: no hold made at admission',
    );
  }
}
