import type { QueueReport } from '@kringle/contracts/queue';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/errors';
import { drawnEntrants, findLine } from './queue.repository';
import { reportFigures } from './queue-report.repository';

/**
 * The drop's public report (issue 55): the draw anyone can check (tools/check-queue-draw.mjs), how
 * fast families were let in and held, when it sold out. 404 until the draw.
 */
export async function drawReport(deps: Pick<FastifyInstance, 'db'>, locationId: string): Promise<QueueReport> {
  const line = await findLine(deps.db, locationId);
  if (!line?.hasLine || !line.drawnAt || !line.seed || !line.seedHash) throw notFound("That location's drop report");
  const [entrants, figures] = await Promise.all([
    drawnEntrants(deps.db, locationId),
    reportFigures(deps.db, locationId),
  ]);
  return {
    final: Boolean(line.closedAt),
    seedHash: line.seedHash,
    seed: line.seed,
    entrants,
    admittedByMinute: figures.admittedByMinute,
    heldWithinSeconds: figures.heldWithinSeconds,
    soldOutAt: figures.soldOutAt?.toISOString() ?? null,
  };
}
