import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StoredResponse } from './idempotency-store';
import type { SandboxState, ThreeDSecureAttempt } from './sandbox-state';
import type { Charge, Dispute, PaymentIntent, PaymentMethod, Refund, StripeEvent, StripeFile } from './stripe-objects';
import type { CardOutcome } from './test-cards';

/**
 * What the sandbox keeps in its state file, so that `npm start` after a restart still knows the
 * PaymentIntents of unpaid bookings (and the keys they were made with): an unpaid booking can
 * still be paid, and the API's jobs find its intent. Webhooks in flight are not kept: the API's
 * reconciliation job reads the outcome of any payment whose webhook was lost.
 */
export interface SandboxSnapshot {
  version: 1;
  keys: { secretKey: string; publishableKey: string; webhookSecret: string };
  paymentIntents: [string, PaymentIntent][];
  paymentMethods: [string, PaymentMethod][];
  cardOutcomes: [string, CardOutcome][];
  charges: [string, Charge][];
  refunds: [string, Refund][];
  /** Absent in a state file written before disputes were modelled. */
  disputes?: [string, Dispute][];
  /** Absent in a state file written before uploads were modelled. */
  files?: [string, { file: StripeFile; data: string }][];
  threeDSecure: [string, ThreeDSecureAttempt][];
  events: StripeEvent[];
  idempotency: [string, StoredResponse][];
}

/** The snapshot in `file`, or null when there is none yet (a first start). A damaged file is an error. */
export function readSnapshot(file: string): SandboxSnapshot | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const snapshot = JSON.parse(text) as SandboxSnapshot;
  if (snapshot.version !== 1)
    throw new Error(
      `Stripe sandbox: ${file} has an unknown format (version ` +
        `${String(snapshot.version)}); move it away to start afresh.`,
    );
  return snapshot;
}

/** The keys of an earlier run, so the API's configuration matches the stored intents and events. */
export function snapshotKeys(file: string): SandboxSnapshot['keys'] | null {
  return readSnapshot(file)?.keys ?? null;
}

export function restoreState(state: SandboxState, snapshot: SandboxSnapshot): void {
  const fill = <V>(map: Map<string, V>, entries: [string, V][]) => entries.forEach(([k, v]) => map.set(k, v));
  fill(state.paymentIntents, snapshot.paymentIntents);
  fill(state.paymentMethods, snapshot.paymentMethods);
  fill(state.cardOutcomes, snapshot.cardOutcomes);
  fill(state.charges, snapshot.charges);
  fill(state.refunds, snapshot.refunds);
  fill(state.disputes, snapshot.disputes ?? []);
  fill(state.files, snapshot.files ?? []);
  fill(state.threeDSecure, snapshot.threeDSecure);
  for (const event of snapshot.events) {
    state.events.push(event);
    state.eventsById.set(event.id, event);
  }
}

export function takeSnapshot(
  state: SandboxState,
  keys: SandboxSnapshot['keys'],
  idempotency: [string, StoredResponse][],
): SandboxSnapshot {
  return {
    version: 1,
    keys,
    paymentIntents: [...state.paymentIntents],
    paymentMethods: [...state.paymentMethods],
    cardOutcomes: [...state.cardOutcomes],
    charges: [...state.charges],
    refunds: [...state.refunds],
    disputes: [...state.disputes],
    files: [...state.files],
    threeDSecure: [...state.threeDSecure],
    events: state.events,
    idempotency,
  };
}

/**
 * Written to a temporary file and renamed over the old one: a crash leaves the old or the new file, never half of one.
 */
export function writeSnapshot(file: string, snapshot: SandboxSnapshot): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(snapshot), { mode: 0o600 });
  renameSync(temporary, file);
}
