import type { AdmittedWanting } from '../queue/queue-admission.repository';
import { AppError } from '../../lib/app-error';
import { leadCutoffOf } from '../booking-lifecycle/booking-policy';
import { holdAddressLimit } from '../sessions/hold-address';
import { createReservation } from './reservations.service';
import { wantedSessions } from './wanted-sessions.repository';

type Deps = Parameters<typeof createReservation>[0];

/** Sessions read per try; taken meanwhile (another process's family) → the next ones. */
const CANDIDATES = 5;
const TRIES = 4;

/**
 * Holds, for each family just admitted with `wants` (issue 55, decision 0116), the first free
 * session matching them, through the ordinary hold: the queue gate, one hold per family, the
 * per-address cap and the one-statement race all apply. A session taken meanwhile → the next;
 * none left, or a refusal of the family itself (a hold elsewhere, say) → it was admitted to
 * choose, as any family is. Never throws: the line's pass goes on.
 */
export async function holdWanted(deps: Deps, locationId: string, wanting: AdmittedWanting[]): Promise<void> {
  // One after another, in line order: side by side, the second in line could win the first's session.
  for (const family of wanting) await holdOne(deps, locationId, family);
}

async function holdOne(deps: Deps, locationId: string, family: AdmittedWanting): Promise<void> {
  const from = { address: family.holdAddress, limit: holdAddressLimit(deps) };
  const tried: string[] = [];
  try {
    for (let round = 0; round < TRIES; round++) {
      const now = deps.clock.now();
      const candidates = await wantedSessions(deps.db, {
        locationId,
        wants: family.wants,
        now,
        leadCutoff: leadCutoffOf(deps.config, now),
        excluded: tried,
        limit: CANDIDATES,
      });
      if (candidates.length === 0) return;
      for (const slotId of candidates) {
        try {
          await createReservation(deps, family.userId, { slotId }, from);
          return;
        } catch (err) {
          if (!(err instanceof AppError) || err.code !== 'SLOT_UNAVAILABLE') throw err;
          tried.push(slotId);
        }
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
