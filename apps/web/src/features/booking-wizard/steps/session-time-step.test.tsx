import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Location, Slot } from '@kringle/contracts/catalogue';
import { selectActiveStep, setLocation, startReschedule, toggleSlotType } from '../state/booking-slice';
import { KEPT_CART_KEY } from '../checkout/kept-cart';
import { stepIndex } from '../state/wizard-steps';
import { moveLosesRefund } from './move-confirm-dialog';
import { POLICY_FIXTURE, SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';
import { SessionTimeStep } from './session-time-step';

const NOW = '2026-11-23T00:00:00.000Z'; // 11 am AEDT, Mon 23 Nov
const location = SYDNEY_FIXTURE;
const slot = (id: string, startAt: string): Slot => ({
  id,
  slotTypeId: 't1',
  kind: 'session',
  startAt,
  endAt: startAt,
  status: 'available',
});
// Tue 24 Nov, 4:00 pm AEDT: 29 h away, inside the 48 h refund cut-off.
const tomorrow = [slot('s-late', '2026-11-24T05:00:00.000Z')];
// Sat 28 Nov, 10:00 am AEDT: well before the cut-off.
const saturday = [slot('s-early', '2026-11-27T23:00:00.000Z')];

function renderStep({
  rescheduleFrom,
  routes = {},
  place = location,
  booked = {},
}: {
  rescheduleFrom?: string;
  routes?: Record<string, unknown>;
  place?: Location;
  booked?: Record<string, unknown>;
} = {}) {
  const reservation = {
    id: 'h2',
    slotId: 's-late',
    bookingId: 'b1',
    status: 'active',
    expiresAt: '2099-01-01T00:00:00.000Z',
  };
  const t = wizardTestStore({
    'GET /booking-slot/loc-1/available-dates': {
      timezone: location.timezone,
      items: [
        { date: '2026-11-24', available: 1, sessions: 1 },
        { date: '2026-11-28', available: 1, sessions: 1 },
      ],
    },
    'GET /booking-slot/loc-1/available-slots': (url: string) => ({
      timezone: location.timezone,
      items: new URL(url).searchParams.get('date') === '2026-11-28' ? saturday : tomorrow,
    }),
    'POST /bookings/reservation': reservation,
    'POST /bookings/b1/reschedule': {
      id: 'b1',
      slot: { id: 's-late', startAt: tomorrow[0]!.startAt, endAt: tomorrow[0]!.endAt },
      location,
      rescheduleCount: 1,
    },
    ...routes,
  });
  t.store.dispatch(setLocation(place));
  if (rescheduleFrom) t.store.dispatch(startReschedule({ bookingId: 'b1', startAt: rescheduleFrom, ...booked }));
  t.store.dispatch(toggleSlotType(location.slotTypes[0]!));
  render(
    <Provider store={t.store}>
      <MemoryRouter>
        <SessionTimeStep focusOnMount={false} />
      </MemoryRouter>
    </Provider>,
  );
  return t;
}

describe('moveLosesRefund', () => {
  const now = new Date(NOW);
  it('is true only when the new session is inside the refund cut-off and the current one is not', () => {
    expect(moveLosesRefund('2026-12-05T00:00:00.000Z', tomorrow[0]!.startAt, POLICY_FIXTURE, now)).toBe(true);
    expect(moveLosesRefund('2026-12-05T00:00:00.000Z', saturday[0]!.startAt, POLICY_FIXTURE, now)).toBe(false);
    // Already inside the cut-off: moving loses nothing more.
    expect(moveLosesRefund('2026-11-24T20:00:00.000Z', tomorrow[0]!.startAt, POLICY_FIXTURE, now)).toBe(false);
    // Not knowing the current session, assume there is a refund to lose.
    expect(moveLosesRefund(undefined, tomorrow[0]!.startAt, POLICY_FIXTURE, now)).toBe(true);
  });

  it('follows the cut-off in force: with 120 hours, Saturday is inside it too', () => {
    const operator = { ...POLICY_FIXTURE, refundCutoffHours: 120 };
    expect(moveLosesRefund('2026-12-05T00:00:00.000Z', saturday[0]!.startAt, operator, now)).toBe(true);
  });
});

describe('SessionTimeStep, rescheduling into the refund cut-off', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(NOW) }));
  afterEach(() => vi.useRealTimers());

  it('asks first, and moving nothing when the family chooses another time', async () => {
    const { calls } = renderStep({ rescheduleFrom: '2026-12-05T00:00:00.000Z' });
    await userEvent.click(await screen.findByRole('button', { name: /4:00 pm/ }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Move to a session without a refund?' });
    // The same from → to and free-move count as any move, and the warning with them.
    expect(within(dialog).getByTestId('move-from-to')).toHaveTextContent(
      /^FromSat 5 Dec, 11:00 am AEDTToTue 24 Nov, 4:00 pm AEDT$/,
    );
    expect(within(dialog).getByText('The new time is less than 48 hours away.', { exact: false })).toBeInTheDocument();
    expect(within(dialog).getByText(/uses free move 1 of 2/)).toBeInTheDocument();
    expect(within(dialog).getByText(/cancel it later, there is no refund/)).toBeInTheDocument();
    // The safe choice has focus, so an accidental Enter does not move the booking.
    expect(within(dialog).getByRole('button', { name: 'Choose another time' })).toHaveFocus();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Choose another time' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
  });

  it(
    "opens on the booking's own day, and says so when the move changes the session type (issue 37 item " + '4)',
    async () => {
      // Booked Sat 28 Nov, 11:00 am AEDT as Pet photos; the type chosen now is Santa photos.
      renderStep({
        rescheduleFrom: '2026-11-28T00:00:00.000Z',
        booked: { slotTypeId: 't-pets', slotTypeName: 'Pet photos' },
      });
      await userEvent.click(await screen.findByRole('button', { name: /10:00 am/ }));
      const confirm = await screen.findByRole('dialog', { name: 'Move your booking?' });
      expect(within(confirm).getByTestId('move-type-change')).toHaveTextContent(
        'The session type changes from Pet photos to Santa photos. Your packages and the price you paid stay the same.',
      );
    },
  );

  it('a slow hold: a second tap before the answer changes nothing, the first tap holds (issue 37 item 5)', async () => {
    let answer: (r: Response) => void = () => undefined;
    const slow = new Promise<Response>((resolve) => (answer = resolve));
    const { calls, store } = renderStep({ routes: { 'POST /bookings/reservation': () => slow } });
    const first = await screen.findByRole('button', { name: /4:00 pm/ });
    await userEvent.click(first);
    expect(await screen.findByRole('button', { name: /4:00 pm, holding…/ })).toBeDisabled();
    // Tapping again (the same time or, on another day, any other) sends nothing more.
    await userEvent.click(first);
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual(['POST /bookings/reservation']);
    answer(
      new Response(
        JSON.stringify({
          id: 'h2',
          slotId: 's-late',
          locationId: 'loc-1',
          bookingId: null,
          status: 'active',
          refreshesLeft: 2,
          expiresAt: '2099-01-01T00:00:00.000Z',
        }),
        { status: 201, headers: { 'content-type': 'application/json' } },
      ),
    );
    await vi.waitFor(() => expect(store.getState().booking.reservationData?.slotId).toBe('s-late'));
  });

  it(
    'a hold refused because the address holds many of the day (429, decision 0069): the server’s words beside the ' +
      'times, nothing held',
    async () => {
      const message =
        'Many sessions on this day are on hold from your internet connection right now (a shared Wi-Fi, perhaps). ' +
        'Please try again in 4 minutes, or pick another day.';
      const refused = () =>
        new Response(JSON.stringify({ error: message, code: 'RATE_LIMITED' }), {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '240' },
        });
      const { store } = renderStep({ routes: { 'POST /bookings/reservation': refused } });
      await userEvent.click(await screen.findByRole('button', { name: /4:00 pm/ }));
      expect(await screen.findByRole('alert')).toHaveTextContent(message);
      expect(store.getState().booking.reservationData).toBeNull();
      expect(screen.getByRole('button', { name: /4:00 pm/ })).toBeEnabled();
    },
  );

  it('moves the booking once the family confirms', async () => {
    const { calls } = renderStep({ rescheduleFrom: '2026-12-05T00:00:00.000Z' });
    await userEvent.click(await screen.findByRole('button', { name: /4:00 pm/ }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move my booking' }),
    );
    await vi.waitFor(() =>
      expect(calls.filter((c) => c.startsWith('POST'))).toEqual([
        'POST /bookings/reservation',
        'POST /bookings/b1/reschedule',
      ]),
    );
  });

  it(
    'shows from → to once before moving to a session before the cut-off, and moves nothing until ' + 'confirmed',
    async () => {
      const { calls } = renderStep({ rescheduleFrom: '2026-12-05T00:00:00.000Z' });
      await userEvent.click(await screen.findByRole('button', { name: /28 November, few left: 1 session left/ }));
      await userEvent.click(await screen.findByRole('button', { name: /10:00 am/ }));
      const confirm = await screen.findByRole('dialog', { name: 'Move your booking?' });
      expect(within(confirm).getByTestId('move-from-to')).toHaveTextContent(
        /^FromSat 5 Dec, 11:00 am AEDTTo.+10:00 am AEDT$/,
      );
      expect(confirm).toHaveTextContent('This uses free move 1 of 2.');
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
      await userEvent.click(within(confirm).getByRole('button', { name: 'Move my booking' }));
      await vi.waitFor(() =>
        expect(calls.filter((c) => c.startsWith('POST'))).toEqual([
          'POST /bookings/reservation',
          'POST /bookings/b1/reschedule',
        ]),
      );
    },
  );

  it(
    'asks about the booking as it is now: moved in another tab since, the dialog says from where and which ' + 'move',
    async () => {
      const movedElsewhere = {
        id: 'b1',
        status: 'completed',
        rescheduleCount: 1,
        slot: { id: 's-other', startAt: '2026-12-06T00:00:00.000Z', endAt: '2026-12-06T00:10:00.000Z' },
      };
      renderStep({ rescheduleFrom: '2026-12-05T00:00:00.000Z', routes: { 'GET /bookings/b1': movedElsewhere } });
      await userEvent.click(await screen.findByRole('button', { name: /28 November, few left: 1 session left/ }));
      await userEvent.click(await screen.findByRole('button', { name: /10:00 am/ }));
      const confirm = await screen.findByRole('dialog', { name: 'Move your booking?' });
      expect(within(confirm).getByTestId('move-from-to')).toHaveTextContent(/^FromSun 6 Dec, 11:00 am AEDTTo/);
      expect(confirm).toHaveTextContent('This uses free move 2 of 2.');
    },
  );

  it('keeps looking without moving when the family chooses another time', async () => {
    const { calls } = renderStep({ rescheduleFrom: '2026-12-05T00:00:00.000Z' });
    await userEvent.click(await screen.findByRole('button', { name: /28 November, few left: 1 session left/ }));
    await userEvent.click(await screen.findByRole('button', { name: /10:00 am/ }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Move your booking?' })).getByRole('button', {
        name: 'Choose another time',
      }),
    );
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
  });

  it('does not ask when booking anew: the Policy step states the refund terms before paying', async () => {
    const { calls } = renderStep();
    await userEvent.click(await screen.findByRole('button', { name: /4:00 pm/ }));
    await vi.waitFor(() => expect(calls).toContain('POST /bookings/reservation'));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});

describe('SessionTimeStep, choosing another day', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(NOW) }));
  afterEach(() => vi.useRealTimers());

  it("never lists the previous day's times under the new day while its own load", async () => {
    let answerSaturday: () => void = () => {};
    const saturdayLoaded = new Promise<void>((resolve) => (answerSaturday = resolve));
    renderStep({
      routes: {
        'GET /booking-slot/loc-1/available-slots': async (url: string) => {
          if (new URL(url).searchParams.get('date') !== '2026-11-28')
            return { timezone: location.timezone, items: tomorrow };
          await saturdayLoaded;
          return { timezone: location.timezone, items: saturday };
        },
      },
    });
    expect(await screen.findByRole('button', { name: /4:00 pm/ })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /28 November, few left: 1 session left/ }));
    expect(await screen.findByRole('heading', { name: /28 November/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /4:00 pm/ })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading sessions');
    answerSaturday();
    expect(await screen.findByRole('button', { name: /10:00 am/ })).toBeInTheDocument();
  });
});

describe('SessionTimeStep, at the sales opening', () => {
  it(
    'lists the opening day’s sessions as bookable by itself, even when the server opens a moment after this device ' +
      'thinks',
    async () => {
      const opensAt = Date.now() + 400;
      // The server's own clock lags this device's view of it by 700 ms (a Date header has whole seconds).
      const serverOpen = () => Date.now() >= opensAt + 700;
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: location.timezone }).format(new Date());
      const session = slot('s-open', new Date(Date.now() + 3 * 3_600_000).toISOString());
      const salesOpenAt = new Date(opensAt).toISOString();
      renderStep({
        place: { ...location, salesOpenAt },
        routes: {
          'GET /booking-slot/loc-1/available-dates': () => ({
            timezone: location.timezone,
            salesOpenAt,
            items: [{ date: today, available: serverOpen() ? 1 : 0, sessions: 1 }],
          }),
          'GET /booking-slot/loc-1/available-slots': () => ({
            timezone: location.timezone,
            salesOpenAt,
            items: [{ ...session, status: serverOpen() ? 'available' : 'unavailable' }],
          }),
        },
      });
      await screen.findByText(/Bookings are open/, undefined, { timeout: 3000 });
      // The second look, 2 s after the instant, finds the server open: the list shows the session bookable.
      await vi.waitFor(() => expect(document.querySelector('[data-status="available"]')).not.toBeNull(), {
        timeout: 5000,
        interval: 100,
      });
      expect(screen.queryByText('Fully booked.')).not.toBeInTheDocument();
    },
    10_000,
  );
});

describe("SessionTimeStep, the family's own hold after signing out and in (issue 53 item 4)", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(NOW) }));
  afterEach(() => {
    vi.useRealTimers();
    localStorage.clear();
  });

  it(
    'shows the held session as theirs, not Taken, and a tap resumes it at Package with the packages chosen ' + 'before',
    async () => {
      const held = {
        id: 'h9',
        slotId: 's-late',
        locationId: 'loc-1',
        status: 'active',
        expiresAt: '2099-01-01T00:00:00.000Z',
        refreshesLeft: 2,
        bookingId: null,
      };
      // Written before the sign-out (kept-cart.ts); the purge and the wizard's reset left it.
      localStorage.setItem(
        KEPT_CART_KEY,
        JSON.stringify({
          holdId: 'h9',
          packages: { p1: { _id: 'p1', type: 'package', totalQuantity: 2, totalPrice: 7990, remove: false } },
        }),
      );
      const t = renderStep({
        routes: {
          'GET /bookings/reservation': { items: [held] },
          'GET /common/locations': { items: [location] },
          'GET /booking-slot/loc-1/slots/s-late': { ...tomorrow[0]!, status: 'reserved' },
          'GET /booking-slot/loc-1/available-slots': {
            timezone: location.timezone,
            items: [{ ...tomorrow[0]!, status: 'reserved' }],
          },
        },
      });
      const mine = await screen.findByRole('button', { name: '4:00 pm, yours: continue' });
      expect(screen.queryByRole('button', { name: /taken/ })).toBeNull();
      expect(mine).toBeEnabled();
      await userEvent.click(mine);
      const state = t.store.getState();
      expect(state.booking.reservationData).toEqual({ holdId: 'h9', slotId: 's-late', expiresAt: held.expiresAt });
      expect(selectActiveStep(state)).toBe(stepIndex('package'));
      expect(state.booking.packages).toEqual({
        p1: { _id: 'p1', type: 'package', totalQuantity: 2, totalPrice: 7990, remove: false },
      });
      // Asked to hold nothing anew: the hold is the one the server keeps.
      expect(t.calls).not.toContain('POST /bookings/reservation');
      // The note is used once.
      expect(localStorage.getItem(KEPT_CART_KEY)).toBeNull();
    },
  );
});
