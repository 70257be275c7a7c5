/**
 * The API's clock as this device sees it. Hold deadlines (`expiresAt`) are the server's
 * instants, and a phone's clock can be minutes off: counting down against it would show the
 * wrong time left, or end a live hold at once. Every API answer's `Date` header updates the
 * offset. The header is in whole seconds, so an offset under 2 s counts as none.
 */
let offsetMs = 0;

export function noteServerDate(header: string | null, receivedAt: number = Date.now()) {
  const server = header ? Date.parse(header) : Number.NaN;
  if (Number.isNaN(server)) return;
  // The header drops the milliseconds: the server's time was in [server, server + 1 s).
  const offset = server + 500 - receivedAt;
  offsetMs = Math.abs(offset) < 2_000 ? 0 : offset;
}

/** Now, on the server's clock. */
export const serverNow = () => Date.now() + offsetMs;

/** For tests: back to trusting the device's clock. */
export function resetServerClock() {
  offsetMs = 0;
}
