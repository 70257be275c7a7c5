import { zonedToInstant } from '@kringle/contracts/dates';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { staffDay, SYDNEY, type StaffDay } from './staff-fixtures';

export interface StaffApp {
  /** The staff day, filled in by the beforeAll this registers: the tests take it before the hooks run. */
  w: StaffDay;
  /** The next unused session of the day: each test books its own. */
  session(): StaffDay['sessions'][number];
}

/**
 * The staff app tests' world (staff.test.ts, staff-check-in.test.ts): a staff day, each test at 9:45 am in Sydney.
 * Call it inside the file's describe; it registers that describe's hooks.
 */
export function staffApp(): StaffApp {
  const w = {} as StaffDay;
  let next = 0;

  beforeAll(async () => {
    Object.assign(w, await staffDay());
  });
  afterAll(async () => w.t?.close());
  // The day, 9:45 am in Sydney: before the first session.
  beforeEach(() => w.clock.set(zonedToInstant(w.day, '09:45', SYDNEY)));

  return { w, session: () => w.sessions[next++]! };
}
