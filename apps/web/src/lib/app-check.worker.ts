/// <reference lib="webworker" />
import { solveChallenge } from 'altcha-lib/v1';
import type { AppCheckChallenge } from './app-check';
import { solveSha256 } from './sha256';

/**
 * Solves an ALTCHA proof-of-work challenge off the main thread, so the page stays responsive
 * while the hashing runs, and answers with the base64 payload /app-check/exchange expects.
 * SHA-256 (what the API issues) uses the fast synchronous hash; anything else falls back to
 * altcha-lib's own solver.
 */
self.onmessage = async (event: MessageEvent<AppCheckChallenge>) => {
  const { algorithm, challenge, salt, signature, maxnumber } = event.data;
  const max = maxnumber ?? 1e6;
  const started = performance.now();
  try {
    let number: number | null;
    if (algorithm.toUpperCase() === 'SHA-256') number = solveSha256(challenge, salt, max);
    else number = (await solveChallenge(challenge, salt, algorithm, max).promise)?.number ?? null;
    if (number === null) throw new Error('no solution within maxnumber');
    const took = Math.round(performance.now() - started);
    const payload = btoa(JSON.stringify({ algorithm, challenge, number, salt, signature, took }));
    self.postMessage({ ok: true, payload });
  } catch (err) {
    self.postMessage({ ok: false, error: String(err) });
  }
};
