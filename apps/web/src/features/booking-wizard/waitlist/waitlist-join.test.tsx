import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memorySink, setAnalyticsSink } from '../../../lib/analytics';
import { selectActiveStep } from '../state/booking-slice';
import { useOfferLink } from './offer-link';
import { WaitlistJoin } from './waitlist-join';
import { SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';
import { stepIndex } from '../state/wizard-steps';

const events: { event: string; params: Record<string, unknown> }[] = [];
beforeEach(() => {
  events.length = 0;
  setAnalyticsSink({ send: (event, params) => events.push({ event, params }) });
});
afterEach(() => setAnalyticsSink(memorySink));

const days = [
  { date: '2026-12-02', available: 3, sessions: 40 },
  { date: '2026-12-05', available: 0, sessions: 40 },
  { date: '2026-12-06', available: 0, sessions: 40 },
];

/** The panel on a Sydney Santa photos day list, Sunday 6 December on show. */
const renderJoin = (store: ReturnType<typeof wizardTestStore>['store']) =>
  render(
    <Provider store={store}>
      <MemoryRouter>
        <WaitlistJoin
          locationId="loc-1"
          locationName={SYDNEY_FIXTURE.name}
          slotTypeId="t1"
          slotTypeName="Santa photos"
          days={days}
          shownDate="2026-12-06"
        />
      </MemoryRouter>
    </Provider>,
  );

describe('Join the waitlist (Session step)', () => {
  it('offers only the full days, preselects the one on show, joins it and says the place in line', async () => {
    let sent: unknown;
    const t = wizardTestStore({
      'POST /waitlist': (_url: string, init: RequestInit) => {
        sent = JSON.parse(String(init.body));
        return {
          id: 'w1',
          locationId: 'loc-1',
          slotTypeId: 't1',
          date: '2026-12-06',
          status: 'waiting',
          position: 2,
          createdAt: '2026-11-24T00:00:00.000Z',
          offer: null,
        };
      },
    });
    renderJoin(t.store);
    const select = screen.getByLabelText('Full day');
    expect([...(select as HTMLSelectElement).options].map((o) => o.value)).toEqual(['2026-12-05', '2026-12-06']);
    expect(select).toHaveValue('2026-12-06');
    await userEvent.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'You are on the waitlist for Sunday 6 December, 2nd in line',
    );
    expect(sent).toEqual({ locationId: 'loc-1', slotTypeId: 't1', date: '2026-12-06' });
    expect(events.map((e) => e.event)).toEqual(['waitlist_join']);
  });

  it('does not offer a day the family already waits for (the panel forgets on Back), and says so', async () => {
    const t = wizardTestStore({
      'GET /waitlist': {
        items: [
          {
            id: 'w1',
            locationId: 'loc-1',
            slotTypeId: 't1',
            date: '2026-12-06',
            status: 'waiting',
            position: 1,
            createdAt: '2026-11-24T00:00:00.000Z',
            offer: null,
          },
        ],
      },
    });
    renderJoin(t.store);
    expect(
      await screen.findByText(/You are already on the waitlist for Sunday 6 December \(1st in line\)/),
    ).toBeInTheDocument();
    const select = screen.getByLabelText('Full day');
    expect([...(select as HTMLSelectElement).options].map((o) => o.value)).toEqual(['2026-12-05']);
  });

  it('shows nothing when no day is full', () => {
    const t = wizardTestStore();
    const { container } = render(
      <Provider store={t.store}>
        <MemoryRouter>
          <WaitlistJoin
            locationId="loc-1"
            locationName="x"
            slotTypeId="t1"
            slotTypeName="Santa photos"
            days={[days[0]!]}
            shownDate={null}
          />
        </MemoryRouter>
      </Provider>,
    );
    expect(container).toBeEmptyDOMElement();
  });
});

function OfferProbe() {
  const { problem, opened, opening } = useOfferLink();
  return <p>{opening ? 'opening' : (problem ?? opened ?? 'no problem')}</p>;
}

describe('the offer link (/create-booking?offer=)', () => {
  it('opens the wizard at the Package step with the offer as the hold and its countdown', async () => {
    const expiresAt = '2099-01-01T00:30:00.000Z';
    const t = wizardTestStore({
      'GET /bookings/reservation/r1': {
        id: 'r1',
        slotId: 's1',
        locationId: 'loc-1',
        status: 'active',
        expiresAt,
        refreshesLeft: 2,
        bookingId: null,
      },
      'GET /common/locations': { items: [SYDNEY_FIXTURE] },
      'GET /booking-slot/loc-1/slots/s1': {
        id: 's1',
        slotTypeId: 't1',
        kind: 'session',
        startAt: '2026-12-05T23:00:00.000Z',
        endAt: '2026-12-05T23:10:00.000Z',
        status: 'reserved',
      },
    });
    render(
      <Provider store={t.store}>
        <MemoryRouter initialEntries={['/create-booking?offer=r1']}>
          <Routes>
            <Route path="/create-booking" element={<OfferProbe />} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    );
    await waitFor(() =>
      expect(t.store.getState().booking.reservationData).toEqual({ holdId: 'r1', slotId: 's1', expiresAt }),
    );
    expect(selectActiveStep(t.store.getState())).toBe(stepIndex('package'));
    expect(t.store.getState().booking.location?.id).toBe('loc-1');
    expect(t.store.getState().timer.endDate).toBe(expiresAt);
    expect(events.map((e) => e.event)).toContain('waitlist_offer_accept');
    // Opened, it says why (issue 37 item 10).
    expect(
      await screen.findByText(
        'A session came free for you: Sun 6 Dec, 10:00 am AEDT at Kringle Sydney, Pitt Street. It is held for you: ' +
          'choose your package to book it.',
      ),
    ).toBeInTheDocument();
  });

  it('says so when the offer has ended', async () => {
    const t = wizardTestStore({
      'GET /bookings/reservation/r2': {
        id: 'r2',
        slotId: 's1',
        locationId: 'loc-1',
        status: 'expired',
        expiresAt: '2020-01-01T00:00:00.000Z',
        refreshesLeft: 2,
        bookingId: null,
      },
    });
    render(
      <Provider store={t.store}>
        <MemoryRouter initialEntries={['/create-booking?offer=r2']}>
          <Routes>
            <Route path="/create-booking" element={<OfferProbe />} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    );
    expect(await screen.findByText(/This offer has ended/)).toBeInTheDocument();
    expect(t.store.getState().booking.reservationData).toBeNull();
  });
});
