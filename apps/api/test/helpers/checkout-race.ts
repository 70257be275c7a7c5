import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import type { Db } from '../../src/db/client';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { startApiProcesses, type ApiProcesses } from './api-processes';
import type { TestCustomer } from './customers';
import { startSandbox } from './payments';
import { createProcessesDatabase } from './processes-database';

export interface CheckoutRace {
  api: ApiProcesses;
  db: Db;
  idTokens: IdTokens;
  sandbox: StripeSandbox;
  /** A call as `who` through process `process % 3`: its status and JSON body. */
  call(process: number, who: TestCustomer, method: string, path: string, body?: object): Promise<CallAnswer>;
  close(): Promise<void>;
}
export interface CallAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The checkout races' world (credit, promo codes, vouchers): three real API processes on one
 * PostgreSQL with three weeks of sessions, against the Stripe sandbox. Start it in a beforeAll with a
 * long timeout (about a minute on 2 cores) and close it in afterAll.
 */
export async function startCheckoutRace(): Promise<CheckoutRace> {
  const conn = await createProcessesDatabase({ season: { days: 21 } });
  const { sandbox, env } = await startSandbox();
  const api = await startApiProcesses(3, { ...conn.env, ...env });
  const call = async (process: number, who: TestCustomer, method: string, path: string, body?: object) => {
    const res = await fetch(`${api.urls[process % 3]}/api/v1${path}`, {
      method,
      headers: { ...who.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return {
    api,
    db: conn.db,
    idTokens: conn.idTokens,
    sandbox,
    call,
    close: async () => {
      await api.stop();
      await sandbox.stop();
      await conn.close();
    },
  };
}
