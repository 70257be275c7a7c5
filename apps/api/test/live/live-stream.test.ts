import { zonedToInstant } from '@kringle/contracts/dates';
import type { LiveSnapshot } from '@kringle/contracts/live';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContractError } from '../security/security-fixtures';
import { sseReader, type SseEvent } from '../helpers/sse-reader';
import { createPerson, headersOf, SYDNEY, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';

const figures = (e: SseEvent) => JSON.parse(e.data!) as LiveSnapshot;

/** GET /staff/live/stream (decision 0094): the figures every 2 s, bounded, and ended when they must be. */
describe('live stream', () => {
  let w: StaffDay;
  let address: string;
  let manager: Person;

  const open = async (who: Person = manager, query = '') =>
    fetch(`${address}/api/v1/staff/live/stream${query}`, { headers: await headersOf(w.t.app.idTokens, who) });

  beforeAll(async () => {
    w = await staffDay({ RATE_LIMIT_MODE: 'on', LIVE_STREAMS_PER_ACCOUNT: '2' });
    address = await w.t.app.listen({ port: 0, host: '127.0.0.1' });
    manager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Mo', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true },
    );
    w.clock.set(zonedToInstant(w.day, '10:30', SYDNEY));
  });
  afterAll(async () => {
    // fetch keeps its sockets alive; the server would wait KEEP_ALIVE_TIMEOUT_MS for them.
    w?.t.app.server.closeAllConnections();
    await w?.t.close();
  });

  it('sends the figures at once, then every 2 s; a hold shows at the next one', async () => {
    const res = await open(manager, `?locationId=${w.sydney}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    const events = sseReader(res.body!);
    expect(await events.next()).toEqual({ retry: '3000' });
    const first = figures(await events.next((e) => !!e.data));
    expect(first.locations.map((l) => l.id)).toEqual([w.sydney]);
    expect(first.locations[0]!.held).toBe(0);
    const second = await events.next((e) => !!e.data, 3000);
    const secondAt = Date.now();
    expect(figures(second).locations[0]!.held).toBe(0);

    expect((await w.call('POST', '/bookings/reservation', w.family, { slotId: w.sessions[12]!.id })).statusCode).toBe(
      201,
    );
    const third = await events.next((e) => !!e.data, 3000);
    // Every 2 s on the server's timer: not sooner than about that after the one before.
    expect(Date.now() - secondAt).toBeGreaterThan(1500);
    expect(figures(third).locations[0]).toMatchObject({ id: w.sydney, held: 1 });
    await events.cancel();
  });

  it('refuses other roles and a third stream of one account; a closed stream gives its place back', async () => {
    expectContractError(await w.call('GET', '/staff/live/stream', w.elf), 403, 'ROLE_FORBIDDEN');
    const a = sseReader((await open()).body!);
    const b = await open();
    expect(b.status).toBe(200);
    const third = await open();
    expect(third.status).toBe(429);
    expect(((await third.json()) as { code: string }).code).toBe('RATE_LIMITED');
    await a.cancel();
    // The server hears the close and lets the place go.
    let again = await open();
    for (let i = 0; again.status === 429 && i < 20; i++) {
      await again.body?.cancel();
      await new Promise((r) => setTimeout(r, 100));
      again = await open();
    }
    expect(again.status).toBe(200);
    await again.body!.cancel();
    await b.body!.cancel();
  });

  it('ends the stream of a manager moved to another role', async () => {
    const moved = await createPerson(w.t.db, true, undefined, { role: 'manager', mfaEnrolled: true });
    const events = sseReader((await open(moved)).body!);
    await events.next((e) => !!e.data);
    await w.t.db.execute(sql`update users set staff_role = 'set' where id = ${moved.id}::uuid`);
    w.t.app.staffStates.forget(moved.id);
    expect(await events.ended(4_500)).toBe(true);
  });

  it('ends open streams when the server shuts down', async () => {
    // An app of its own, with no other keep-alive socket of fetch's that its close would wait for.
    const other = await staffDay();
    const url = await other.t.app.listen({ port: 0, host: '127.0.0.1' });
    const boss = await createPerson(other.t.db, true, undefined, { role: 'manager', mfaEnrolled: true });
    const res = await fetch(`${url}/api/v1/staff/live/stream`, {
      headers: await headersOf(other.t.app.idTokens, boss),
    });
    const events = sseReader(res.body!);
    await events.next((e) => !!e.data);
    const closing = other.t.close();
    expect(await events.ended(3_000)).toBe(true);
    await closing;
  });
});
