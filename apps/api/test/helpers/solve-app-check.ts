import { createHash } from 'node:crypto';

/**
 * Finds the ALTCHA number with node:crypto's synchronous hash. altcha-lib's own solver awaits
 * crypto.subtle once per hash: up to 50 000 promise round trips, 3 to 5 s on an idle core and
 * tens of seconds on a busy host, which is where tests spent their timeouts. This does the same
 * search in tens of milliseconds; the API's cost is unchanged. Shared by the API tests, e2e and
 * the bench, so it imports nothing from a test runner.
 */
export function solveAppCheck(challenge: string, salt: string, maxnumber: number): number | null {
  for (let n = 0; n <= maxnumber; n += 1) {
    if (createHash('sha256').update(`${salt}${n}`).digest('hex') === challenge) return n;
  }
  return null;
}
