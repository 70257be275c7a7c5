import { createHmac } from 'node:crypto';

/**
 * An entrant's draw key (decision 0053): the hex HMAC-SHA256 of its ticket id under the line's
 * seed. Written with the ticket when it joins before the opening (decision 0117), so the draw
 * itself writes no ticket; the seed stays unpublished until the draw, and the key with it.
 */
export const drawKeyOf = (seed: string, ticketId: string): string =>
  createHmac('sha256', seed).update(ticketId).digest('hex');

/**
 * The draw: the entrants sorted by their key (ties, impossible in practice, by id). Anyone with the
 * published seed and entrants recomputes it (tools/check-queue-draw.mjs does).
 */
export function drawOrder(seed: string, ticketIds: readonly string[]): string[] {
  const keyed = ticketIds.map((id) => ({ id, key: drawKeyOf(seed, id) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : 1));
  return keyed.map((k) => k.id);
}
