import { zonedToInstant } from '@kringle/contracts/dates';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD } from '../helpers/accounts';
import { FAMILY_AS_SENT, headersOf, staffDay, SYDNEY, type StaffDay } from '../staff/staff-fixtures';

/**
 * Issue 48 item 10: a name with a bidi override, an isolate, a zero-width or a line-separator
 * character reached the run sheet and its CSV raw. Every name field answers 400 VALIDATION_FAILED
 * naming the field, and nothing is stored.
 */
const HIDDEN = ['Mary\u202eyraM', 'Mary\u2066Smith\u2069', 'Ma\u200bry', 'Mary\u2028Smith', 'Ma\u2060ry', 'Mary\u200f'];

describe('every name field refuses characters that hide or reorder text', () => {
  let w: StaffDay;
  beforeAll(async () => {
    w = await staffDay();
  });
  afterAll(async () => w?.t.close());
  beforeEach(() => w.clock.set(zonedToInstant(w.day, '09:45', SYDNEY)));

  const expectFieldRefused = (
    res: { statusCode: number; body: string; json: () => { code: string; details: { path: string }[] } },
    field: string,
  ) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().details.map((d) => d.path)).toContain(`body.${field}`);
  };

  it('registration: 400 with the field, no account made', async () => {
    for (const [i, name] of HIDDEN.entries()) {
      const email = `hidden-${i}@example.com`;
      for (const field of ['firstName', 'lastName']) {
        const payload = { email, password: STRONG_PASSWORD, firstName: 'Mary', lastName: 'Smith', [field]: name };
        expectFieldRefused(await w.t.app.inject({ method: 'POST', url: '/api/v1/user', payload }), field);
      }
      expect((await w.t.db.execute(sql`select 1 from users where email = ${email}`)).rows).toHaveLength(0);
    }
  });

  it('profile edits: 400 with the field, the name unchanged', async () => {
    const headers = await headersOf(w.t.app.idTokens, w.family);
    const before = (await w.t.db.execute(sql`select first_name, last_name from users where id = ${w.family.id}::uuid`))
      .rows[0];
    for (const name of HIDDEN) {
      for (const field of ['firstName', 'lastName']) {
        expectFieldRefused(
          await w.t.app.inject({ method: 'PATCH', url: '/api/v1/user/me', headers, payload: { [field]: name } }),
          field,
        );
      }
    }
    expect(
      (await w.t.db.execute(sql`select first_name, last_name from users where id = ${w.family.id}::uuid`)).rows[0],
    ).toEqual(before);
    // An ordinary name with accents and a joiner inside a word still saves.
    const ok = await w.t.app.inject({
      method: 'PATCH',
      url: '/api/v1/user/me',
      headers,
      payload: { firstName: 'Zoë', lastName: 'Nguyễn' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("walk-ins (names staff type) and the children's names: 400 with the field, no booking", async () => {
    const slotId = w.sessions[3]!.id;
    const body = (extra: object) => ({
      slotId,
      firstName: 'Ada',
      lastName: 'Walker',
      details: FAMILY_AS_SENT,
      packages: [{ id: w.classic, quantity: 1 }],
      addOns: [],
      paidWith: 'eftpos',
      ...extra,
    });
    for (const name of HIDDEN) {
      expectFieldRefused(await w.call('POST', '/staff/walk-ins', w.elf, body({ firstName: name })), 'firstName');
      expectFieldRefused(await w.call('POST', '/staff/walk-ins', w.elf, body({ lastName: name })), 'lastName');
      const details = { ...FAMILY_AS_SENT, children: [{ firstName: name, age: 4 }] };
      expectFieldRefused(
        await w.call('POST', '/staff/walk-ins', w.elf, body({ details })),
        'details.children.0.firstName',
      );
    }
    expect((await w.t.db.execute(sql`select 1 from bookings where slot_id = ${slotId}::uuid`)).rows).toHaveLength(0);
  });
});
