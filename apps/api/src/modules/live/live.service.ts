import type { FastifyInstance } from 'fastify';
import type { LiveSnapshot } from '@kringle/contracts/live';
import { notFound } from '../../lib/errors';
import { liveFigures } from './live.repository';

/** Every location's figures and the 5xx count, read now (the feed decides how often). */
export async function readLive(app: FastifyInstance): Promise<LiveSnapshot> {
  const now = app.clock.now();
  const [locations, errorsLast5Min] = await Promise.all([liveFigures(app.db, now), app.serverErrors.total()]);
  return { at: now.toISOString(), locations, errorsLast5Min };
}

/** Who sees what: a manager's own locations (empty list: all), or the one asked for. */
export interface LiveScope {
  staffLocationIds: readonly string[];
  locationId?: string;
}

/**
 * The snapshot as this caller sees it. The location asked for must be covered (the route checked:
 * 403 LOCATION_FORBIDDEN) and exist (404). The error count is the whole API's, not per location.
 */
export function liveFor(snapshot: LiveSnapshot, scope: LiveScope): LiveSnapshot {
  const covered = (id: string) => !scope.staffLocationIds.length || scope.staffLocationIds.includes(id);
  const locations = snapshot.locations.filter(
    (l) => covered(l.id) && (scope.locationId === undefined || l.id === scope.locationId),
  );
  if (scope.locationId !== undefined && !locations.length) throw notFound('That location');
  return { ...snapshot, locations };
}
