import { z } from 'zod';
import { int } from './env-values';

/** The fair start's waiting room; config.ts composes these into the environment. */
export const queueSettings = {
  /** The fair start (decision 0053): admitted families not yet holding stay at most this × the free sessions. */
  QUEUE_ADMIT_FACTOR: z.coerce.number().min(0.1).max(20).default(1.5),
  /** How long an admission lasts to take a hold. */
  QUEUE_ADMIT_MINUTES: int(1, 120).default(10),
  /** An admission with no hold taken this long passes to the next family (issue 55). */
  QUEUE_IDLE_SECONDS: int(10, 3600).default(120),
  /** A waiting family not seen (no poll, no stream) this long loses its place (issue 55). */
  QUEUE_RECONNECT_SECONDS: int(30, 24 * 3600).default(300),
  /** Waiting-room tickets one address (an IPv6 client by its /64) may hold in one line (issue 48 item 13). */
  QUEUE_TICKETS_PER_ADDRESS: int(1, 100_000).default(20),
};
