import { zonedToInstant } from '@kringle/contracts/dates';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { FAMILY_AS_SENT, staffDay, SYDNEY, type StaffDay } from './staff-fixtures';

export interface WalkIns {
  /** The staff day, filled in by the beforeAll this registers: the tests take it before the hooks run. */
  w: StaffDay;
  /** The next unused session of the day: each test sells its own. */
  session(): StaffDay['sessions'][number];
  /** A walk-in's body for `slotId`, paid by EFTPOS, with `extra` over it. */
  body(slotId: string, extra?: object): object;
}

/**
 * The walk-in tests' world (staff-walk-ins.test.ts, staff-walk-ins-refusals.test.ts, staff-walk-ins-csv.test.ts): a
 * staff day, each test at 9:45 am in Sydney. Call it inside the file's describe; it registers that describe's hooks.
 */
export function walkIns(): WalkIns {
  const w = {} as StaffDay;
  // Past the online lead time from 9:45 am, so the availability answers show them as on sale.
  let next = 10;

  beforeAll(async () => {
    Object.assign(w, await staffDay());
  });
  afterAll(async () => w.t?.close());
  // The day, 9:45 am in Sydney: before the first session.
  beforeEach(() => w.clock.set(zonedToInstant(w.day, '09:45', SYDNEY)));

  return {
    w,
    session: () => w.sessions[next++]!,
    body: (slotId, extra = {}) => ({
      slotId,
      firstName: 'Ada',
      lastName: 'Walker',
      details: FAMILY_AS_SENT,
      packages: [{ id: w.classic, quantity: 1 }],
      addOns: [],
      paidWith: 'eftpos',
      ...extra,
    }),
  };
}
