import { ACCESS_CONSENT } from '@kringle/contracts/consent';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, headersOf } from '../staff/staff-fixtures';
import { privacyWorld, type PrivacyWorld } from './privacy-world';

const BASE = { children: [{ firstName: 'Mia', age: 6 }], adults: 1, pets: 0, accessNeeds: [] as string[] };

/** Access needs are health information (APP 3.3): saved only with the parent's consent, recorded (decision 0058). */
describe('consent for access needs', () => {
  let w: PrivacyWorld;
  beforeAll(async () => {
    w = await privacyWorld();
  });
  afterAll(async () => w?.close());

  const consentsOf = async (bookingId: string) =>
    (
      await w.t.db.execute(
        sql`select user_id, kind, wording_version, given_at, recorded_by from consents where booking_id =
${bookingId}::uuid order by given_at`,
      )
    ).rows;

  it('refuses access needs or an access note without consent: true, and changes nothing', async () => {
    const who = await w.family();
    const b = await w.book(who, false);
    for (const body of [
      { ...BASE, accessNeeds: ['sensory'] },
      { ...BASE, accessNote: 'Loud noises upset him' },
      { ...BASE, accessNeeds: ['auslan'], consent: false },
    ]) {
      const res = await w.call('PUT', `/bookings/${b.id}/details`, who, body);
      expectContractError(res, 400, 'CONSENT_REQUIRED');
      expect(res.json().details).toEqual([{ path: 'body.consent', message: expect.stringContaining('Tick the box') }]);
    }
    expect((await w.call('GET', `/bookings/${b.id}`, who)).json().details).toBeNull();
    expect(await consentsOf(b.id)).toEqual([]);
  });

  it('saves them with consent and records who agreed, to which words, when; the notes are optional', async () => {
    const who = await w.family();
    const b = await w.book(who, false);
    const res = await w.call('PUT', `/bookings/${b.id}/details`, who, {
      ...BASE,
      accessNeeds: ['sensory'],
      consent: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    // accessNote and noteForSanta were absent: empty.
    expect(res.json().details).toEqual({ ...BASE, accessNeeds: ['sensory'], accessNote: '', noteForSanta: '' });
    expect(await consentsOf(b.id)).toEqual([
      {
        user_id: who.id,
        kind: 'access_needs',
        wording_version: ACCESS_CONSENT.version,
        given_at: expect.anything(),
        recorded_by: null,
      },
    ]);
    // Details without access needs need no consent, and record none (another family: one unpaid checkout each, decision
    // 0059).
    const other = await w.family();
    const plain = await w.book(other, false);
    expect(
      (await w.call('PUT', `/bookings/${plain.id}/details`, other, { ...BASE, noteForSanta: 'A red bike' })).statusCode,
    ).toBe(200);
    expect(await consentsOf(plain.id)).toEqual([]);
  });

  it('asks the same of the support desk, and records the staff member who asked', async () => {
    const who = await w.family();
    const b = await w.book(who);
    const support = await createPerson(
      w.t.db,
      true,
      { firstName: 'Sam', lastName: 'Support' },
      { role: 'support', mfaEnrolled: true },
    );
    const headers = await headersOf(w.t.app.idTokens, support);
    const details = { ...BASE, accessNeeds: ['wheelchair'], accessNote: '', noteForSanta: '' };
    expectContractError(
      await w.call('PUT', `/staff/bookings/${b.id}/details`, { headers }, { details, reason: 'Family phoned' }),
      400,
      'CONSENT_REQUIRED',
    );
    const res = await w.call(
      'PUT',
      `/staff/bookings/${b.id}/details`,
      { headers },
      { details: { ...details, consent: true }, reason: 'Family phoned' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await consentsOf(b.id)).toEqual([expect.objectContaining({ user_id: who.id, recorded_by: support.id })]);
  });
});
