import type { AuthClaims } from './id-tokens';
import { ID_TOKEN_TTL_SECONDS } from './id-tokens';

/**
 * How long after an account's sessions ended its raised epoch is still worth remembering: the
 * lifetime of a token issued just before (or, in a refresh racing the end, just after), plus a
 * minute for clocks that differ between processes. Older tokens have expired on their own.
 */
export const CUTOFF_MEMORY_MS = ID_TOKEN_TTL_SECONDS * 1000 + 60_000;

/**
 * This process's copy of the accounts whose sessions ended lately (decision 0063), checked on
 * every authenticated request from memory: a token of an older epoch than its account's is
 * refused (401), however recently this process verified it. Fed by the process's own ends at
 * once (`raise` after the commit) and by the other processes' through LISTEN/NOTIFY, a reload
 * on (re)connect and a fallback poll (session-cutoffs.listener.ts). Only accounts ended within
 * CUTOFF_MEMORY_MS are kept, so the map stays as small as the last quarter hour's sign-outs.
 */
export class SessionCutoffs {
  private readonly epochs = new Map<string, { epoch: number; forgetAtMs: number }>();
  private readonly listeners: ((userId: string) => void)[] = [];

  /** The hot path: one size check, and one map lookup while anything is remembered. */
  refuses(claims: AuthClaims): boolean {
    if (this.epochs.size === 0) return false;
    const cutoff = this.epochs.get(claims.userId);
    return cutoff !== undefined && claims.sessionEpoch < cutoff.epoch;
  }

  /** The account's epoch is now `epoch` (raised at `endedAtMs`); tells the live streams when it rose. */
  raise(userId: string, epoch: number, endedAtMs: number): void {
    const known = this.epochs.get(userId);
    if (known && known.epoch >= epoch) return;
    this.epochs.set(userId, { epoch, forgetAtMs: endedAtMs + CUTOFF_MEMORY_MS });
    for (const listener of this.listeners) listener(userId);
  }

  /** Called with the account's id whenever its epoch rises here: its live streams end (issue 36). */
  onRaised(listener: (userId: string) => void): void {
    this.listeners.push(listener);
  }

  /** Drops the accounts whose old tokens have all expired. */
  prune(nowMs: number): void {
    for (const [userId, cutoff] of this.epochs) if (cutoff.forgetAtMs <= nowMs) this.epochs.delete(userId);
  }

  get size(): number {
    return this.epochs.size;
  }
}
