/// <reference lib="webworker" />
import { solveChallenge } from 'altcha-lib/v1';
import type { AppCheckChallenge } from './app-check';

/**
 * Solves an ALTCHA proof-of-work challenge off the main thread, so the page stays responsive
 * while the hashing runs, and answers with the base64 payload /app-check/exchange expects.
 */
self.onmessage = async (event: MessageEvent<AppCheckChallenge>) => {
  const { algorithm, challenge, salt, signature, maxnumber } = event.data;
  try {
    const solution = await solveChallenge(challenge, salt, algorithm, maxnumber ?? 1e6).promise;
    if (!solution) throw new Error('no solution within maxnumber');
    const payload = btoa(JSON.stringify({ algorithm, challenge, number: solution.number, salt, signature, took: solution.took }));
    self.postMessage({ ok: true, payload });
  } catch (err) {
    self.postMessage({ ok: false, error: String(err) });
  }
};
