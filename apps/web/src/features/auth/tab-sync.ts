import type { SessionPayload } from './auth-slice';

/**
 * What one tab tells the others about the session (docs/decisions/0005): a session started or
 * refreshed, a sign-out (every tab signs out and purges, spec §4), or a staff refusal.
 * BroadcastChannel carries the ID token in memory only; the `storage`-event fallback writes to
 * localStorage, so it never carries the token (the other tab refreshes for itself instead).
 */
export type TabMessage =
  { type: 'session'; session: SessionPayload | null } | { type: 'signed-out' } | { type: 'staff-refused' };

const CHANNEL = 'kringle-auth';
const STORAGE_KEY = 'kringle-auth-event';
const REFRESH_LOCK = 'kringle-refresh';
/** A tab that holds the refresh lock longer than this (a hung request) no longer blocks the others. */
const REFRESH_LOCK_TIMEOUT_MS = 10_000;

let channel: BroadcastChannel | null | undefined;
function getChannel(): BroadcastChannel | null {
  if (channel === undefined) channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
  return channel;
}

/** The newest session another tab published, and when this tab heard of it. */
let shared: { session: SessionPayload; at: number } | null = null;

export function tellOtherTabs(message: TabMessage): void {
  const bc = getChannel();
  if (bc) {
    bc.postMessage(message);
    return;
  }
  try {
    const safe = message.type === 'session' ? { type: 'session', session: null } : message;
    // A nonce makes every event a change, so two sign-outs in a row both fire `storage`.
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...safe, nonce: Math.random() }));
    window.localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage refused (private mode): the other tabs find out on their next call.
  }
}

/** Calls `handle` with every message from another tab; returns the unsubscribe. */
export function listenToOtherTabs(handle: (message: TabMessage) => void): () => void {
  const receive = (message: TabMessage) => {
    if (message.type === 'session' && message.session) shared = { session: message.session, at: Date.now() };
    if (message.type !== 'session') shared = null;
    handle(message);
  };
  const bc = getChannel();
  if (bc) {
    const onMessage = (event: MessageEvent<TabMessage>) => receive(event.data);
    bc.addEventListener('message', onMessage);
    return () => bc.removeEventListener('message', onMessage);
  }
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY || !event.newValue) return;
    try {
      receive(JSON.parse(event.newValue) as TabMessage);
    } catch {
      // Not ours.
    }
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

/** A session another tab published at or after `since` (ms, Date.now()), if any. */
export function sessionFromOtherTabSince(since: number): SessionPayload | null {
  return shared && shared.at >= since ? shared.session : null;
}

/**
 * Runs `refresh` while holding the cross-tab refresh lock (Web Locks), so tabs refresh one at a
 * time and the later ones can re-read the outcome instead of rotating again. Without Web Locks,
 * or when the lock is not granted within the timeout, it runs anyway: the in-tab single flight
 * and the server's reuse grace still keep the family signed in, and the app never freezes.
 */
export async function withRefreshLock<T>(refresh: () => Promise<T>, timeoutMs = REFRESH_LOCK_TIMEOUT_MS): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks?.request) return refresh();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  let started = false;
  try {
    return await locks.request(REFRESH_LOCK, { signal: abort.signal }, () => {
      started = true;
      clearTimeout(timer);
      return refresh();
    });
  } catch (err) {
    if (started) throw err;
    return refresh(); // not granted in time (or Web Locks refused): go ahead without it
  } finally {
    clearTimeout(timer);
  }
}

/** Tests only: forget the channel and the shared session between cases. */
export function resetTabSyncForTests(): void {
  channel?.close();
  channel = undefined;
  shared = null;
}
