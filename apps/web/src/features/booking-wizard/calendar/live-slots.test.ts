import { describe, expect, it } from 'vitest';
import type { Slot } from '@kringle/contracts/catalogue';
import { bookingApi } from '../api';
import { parseSse } from '../../../lib/sse';
import { liveSlotsApi } from './live-slots';
import { wizardTestStore } from '../state/wizard-test-store';

describe('parseSse', () => {
  it('splits complete messages from the unfinished rest, skips comments, reads retry', () => {
    const { messages, rest, retryMs } = parseSse(
      'retry: 3000\n\n: keep-alive\n\nevent: slot\ndata: {"a":1}\n\nevent: slot\ndata: {"b"',
    );
    expect(retryMs).toBe(3000);
    expect(messages).toEqual([{ event: 'slot', data: '{"a":1}' }]);
    expect(rest).toBe('event: slot\ndata: {"b"');
    expect(parseSse('data: x\r\n\r\n').messages).toEqual([{ event: 'message', data: 'x' }]);
  });
});

const slot = (id: string, status: Slot['status'] = 'available'): Slot => ({
  id,
  slotTypeId: 't1',
  kind: 'session',
  startAt: '2026-12-05T00:00:00.000Z',
  endAt: '2026-12-05T00:10:00.000Z',
  status,
});

describe('live slot changes', () => {
  it('patches the cached day and its count from the stream, without refetching', async () => {
    let push!: (text: string) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(new TextEncoder().encode(text));
      },
    });
    const t = wizardTestStore({
      'GET /booking-slot/loc-1/available-slots': {
        timezone: 'Australia/Sydney',
        salesOpenAt: null,
        items: [slot('a'), slot('b')],
      },
      'GET /booking-slot/loc-1/available-dates': {
        timezone: 'Australia/Sydney',
        salesOpenAt: null,
        items: [{ date: '2026-12-05', available: 2, sessions: 2 }],
      },
      'GET /booking-slot/loc-1/live': () =>
        new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    });
    const daysArgs = { locationId: 'loc-1', slotTypeId: 't1' };
    const slotsArgs = { locationId: 'loc-1', slotTypeId: 't1', date: '2026-12-05' };
    await t.store.dispatch(bookingApi.endpoints.getAvailableDates.initiate(daysArgs));
    await t.store.dispatch(bookingApi.endpoints.getAvailableSlots.initiate(slotsArgs));
    t.store.dispatch(liveSlotsApi.endpoints.slotChanges.initiate('loc-1'));
    const live = () => liveSlotsApi.endpoints.slotChanges.select('loc-1')(t.store.getState()).data?.live;
    await expect.poll(live).toBe(true);

    push('retry: 3000\n\nevent: slot\ndata: {"slotId":"b","date":"2026-12-05","status":"reserved"}\n\n');
    const slots = () =>
      bookingApi.endpoints.getAvailableSlots
        .select(slotsArgs)(t.store.getState())
        .data?.items.map((s) => s.status);
    await expect.poll(slots).toEqual(['available', 'reserved']);
    expect(bookingApi.endpoints.getAvailableDates.select(daysArgs)(t.store.getState()).data?.items[0]?.available).toBe(
      1,
    );
    // Another day's or another slot's news changes nothing here; a second "reserved" does not count twice.
    push(
      'event: slot\ndata: {"slotId":"b","date":"2026-12-05","status":"reserved"}\n\nevent: slot\ndata: ' +
        '{"slotId":"z","date":"2026-12-06","status":"reserved"}\n\n',
    );
    push('event: slot\ndata: {"slotId":"a","date":"2026-12-05","status":"booked"}\n\n');
    await expect.poll(slots).toEqual(['booked', 'reserved']);
    expect(bookingApi.endpoints.getAvailableDates.select(daysArgs)(t.store.getState()).data?.items[0]?.available).toBe(
      0,
    );
    expect(t.calls.filter((c) => c.includes('available-slots'))).toHaveLength(1);
  });
});
