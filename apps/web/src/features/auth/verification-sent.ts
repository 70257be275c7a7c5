import { useSyncExternalStore } from 'react';

const KEY = 'kringle.verification-sent-at';

/**
 * What this tab knows of the last verification e-mail for an address: being sent (registration
 * asks for it as the verify screen opens), sent, refused (with the server's words), or nothing (a
 * sign-in later, or the unverified demo account, seeded and never mailed). The verify screen says
 * only what is known: it said "We've sent a verification link" when the send had been refused
 * (400 REDIRECT_NOT_ALLOWED at 127.0.0.1) or never made (issue 53).
 */
export type VerificationSend =
  { state: 'none' } | { state: 'sending' | 'sent'; at: number } | { state: 'failed'; message: string };

type Stored =
  { state: 'sending' | 'sent'; at: number; email: string } | { state: 'failed'; message: string; email: string };

const NONE: VerificationSend = { state: 'none' };
/** Registration's request answers in a second or two; one older than this was cut off. */
const SENDING_FORGOTTEN_MS = 30_000;
const listeners = new Set<() => void>();
// The last answer and the stored text it came from: the same text gives the same object (useSyncExternalStore).
let cached: { raw: string; email: string; send: VerificationSend } | null = null;

function storedText(): string {
  try {
    return window.sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

function parse(raw: string, email: string): VerificationSend {
  let value: Partial<Stored> = {};
  try {
    value = raw ? (JSON.parse(raw) as Partial<Stored>) : {};
  } catch {
    return NONE;
  }
  if (typeof value !== 'object' || value === null || value.email?.toLowerCase() !== email.toLowerCase()) return NONE;
  if (value.state === 'failed') return { state: 'failed', message: String(value.message ?? '') };
  if ((value.state === 'sending' || value.state === 'sent') && typeof value.at === 'number' && value.at > 0) {
    // A send whose answer never came back (the tab reloaded meanwhile) is not known to have gone.
    if (value.state === 'sending' && Date.now() - value.at > SENDING_FORGOTTEN_MS) return NONE;
    return { state: value.state, at: value.at };
  }
  return NONE;
}

function write(value: Stored | null): void {
  try {
    if (value === null) window.sessionStorage.removeItem(KEY);
    else window.sessionStorage.setItem(KEY, JSON.stringify(value));
  } catch {
    // Storage refused: the server's 429 still says how long to wait.
  }
  for (const listener of listeners) listener();
}

/**
 * Registration asks for the verification e-mail, and the server sends one a minute per family. The
 * verify screen opens right after, so a family pressing 'Resend Email' met that limit as a red
 * error. The moment of the first send is kept for this tab, and the button waits the rest out.
 */
export function noteVerificationSending(email: string, now = Date.now()): void {
  write({ state: 'sending', at: now, email });
}

/** The server took the request: a link is on its way to `email`. */
export function noteVerificationSent(email: string, now = Date.now()): void {
  write({ state: 'sent', at: now, email });
}

/** The send was refused: nothing to wait for, and the verify screen says why. */
export function noteVerificationFailed(email: string, message: string): void {
  write({ state: 'failed', message, email });
}

/** Nothing known any more. */
export function forgetVerificationSent(): void {
  write(null);
}

/** The last send to `email` noted in this tab. */
export function verificationSend(email: string): VerificationSend {
  const raw = storedText();
  if (cached?.raw !== raw || cached.email !== email) cached = { raw, email, send: parse(raw, email) };
  return cached.send;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The verify screen's view of the last send, updated when registration's request answers. */
export function useVerificationSend(email: string): VerificationSend {
  const get = () => verificationSend(email);
  return useSyncExternalStore(subscribe, get, get);
}

/** Seconds left of `waitSeconds` since the last send to `email` noted here (0 when none). */
export function secondsUntilResend(email: string, waitSeconds: number, now = Date.now()): number {
  const send = parse(storedText(), email);
  if ((send.state !== 'sending' && send.state !== 'sent') || send.at > now) return 0;
  return Math.max(0, Math.ceil((send.at + waitSeconds * 1000 - now) / 1000));
}
