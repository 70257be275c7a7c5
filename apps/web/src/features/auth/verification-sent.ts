const KEY = 'kringle.verification-sent-at';

/**
 * Registration asks for the verification e-mail, and the server sends one a minute per family. The
 * verify screen opens right after, so a family pressing 'Resend Email' met that limit as a red
 * error. The moment of the first send is kept for this tab, and the button waits the rest out.
 */
export function noteVerificationSent(now = Date.now()): void {
  try {
    window.sessionStorage.setItem(KEY, String(now));
  } catch {
    // Storage refused: the server's 429 still says how long to wait.
  }
}

/** The send failed: nothing to wait for. */
export function forgetVerificationSent(): void {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // Nothing was kept.
  }
}

/** Seconds left of `waitSeconds` since the last send noted here (0 when none). */
export function secondsUntilResend(waitSeconds: number, now = Date.now()): number {
  let sentAt = NaN;
  try {
    sentAt = Number(window.sessionStorage.getItem(KEY));
  } catch {
    return 0;
  }
  if (!Number.isFinite(sentAt) || sentAt <= 0 || sentAt > now) return 0;
  return Math.max(0, Math.ceil((sentAt + waitSeconds * 1000 - now) / 1000));
}
