import { sql } from 'drizzle-orm';
import { zonedToInstant } from '@kringle/contracts/dates';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, headersOf, SYDNEY, type Person } from '../staff/staff-fixtures';
import { closureWorld, countRows, rangeOf, type ClosureWorld } from './closure-fixtures';

/**
 * Issue 48 item 12: an Idempotency-Key reused with a different body is refused with 422
 * IDEMPOTENCY_MISMATCH (Stripe's rule), never answered with the first closure. POST
 * /staff/closures is the one route that takes the header (grep Idempotency-Key in apps/api/src).
 */
describe('closures: the same Idempotency-Key with another body', () => {
  let c: ClosureWorld;
  const local = (at: string) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: SYDNEY, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(at),
    );
  const range = (i: number, j: number) =>
    rangeOf(c, local(c.w.sessions[i]!.start_at), local(c.w.sessions[j]!.start_at));
  const post = async (who: Person, payload: object, key: string) =>
    c.w.t.app.inject({
      method: 'POST',
      url: '/api/v1/staff/closures',
      headers: { ...(await headersOf(c.w.t.app.idTokens, who)), 'idempotency-key': key },
      payload,
    });
  const closureCount = () => countRows(c, sql`select count(*) as n from closures`);
  const blockedCount = () => countRows(c, sql`select count(*) as n from slots where blocked`);

  const standardType = async () =>
    (await c.w.t.db.execute(sql`select slot_type_id as id from slots where id = ${c.w.sessions[0]!.id}::uuid`)).rows[0]!
      .id as string;

  beforeAll(async () => {
    c = await closureWorld();
    c.w.clock.set(zonedToInstant(c.w.day, '09:45', SYDNEY));
  });
  afterAll(async () => c?.close());

  it(
    'answers the same closure for the same body, and 422 IDEMPOTENCY_MISMATCH for any other body, changing ' +
      'nothing',
    async () => {
      const body = { ...range(0, 2), remedy: 'refund', message: 'Back tomorrow.', confirm: c.sydneyName };
      const first = await post(c.manager, body, 'close-0-2');
      expect(first.statusCode, first.body).toBe(202);
      // The confirm's surrounding spaces are not a parameter of the closure.
      const again = await post(c.manager, { ...body, confirm: ` ${c.sydneyName} ` }, 'close-0-2');
      expect(again.statusCode, again.body).toBe(202);
      expect(again.json().id).toBe(first.json().id);
      const blocked = await blockedCount();

      const others = [
        { ...body, ...range(0, 3) },
        { ...body, remedy: 'offer_move' },
        { ...body, message: 'Back next week.' },
        { ...body, reason: 'The power is out' },
        { ...body, slotTypeId: await standardType() },
      ];
      for (const other of others) {
        const res = await post(c.manager, other, 'close-0-2');
        expectContractError(res, 422, 'IDEMPOTENCY_MISMATCH');
        expect(res.json().details).toEqual([{ path: 'headers.idempotency-key', message: expect.any(String) }]);
      }
      expect(await closureCount()).toBe(1);
      expect(await blockedCount()).toBe(blocked);

      // The key is the manager's own: another manager's same key is a closure of its own.
      const second = await createPerson(
        c.w.t.db,
        true,
        { firstName: 'Nan', lastName: 'Manager' },
        { role: 'manager', mfaEnrolled: true },
      );
      const theirs = await post(second, { ...body, ...range(3, 4) }, 'close-0-2');
      expect(theirs.statusCode, theirs.body).toBe(202);
      expect(await closureCount()).toBe(2);
    },
  );
});
