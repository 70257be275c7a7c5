import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { QueueTicket } from '@kringle/contracts/queue';
import { QueuePage } from './queue-page';
import { SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';
import { stepIndex } from '../state/wizard-steps';

const OPENS = '2099-12-01T00:30:00.000Z';
const ticket = (t: Partial<QueueTicket>): QueueTicket => ({
  status: 'before_open',
  position: null,
  ahead: null,
  estimatedWaitSeconds: null,
  admittedUntil: null,
  opensAt: OPENS,
  wants: null,
  reservation: null,
  ...t,
});

function renderQueue(answers: Record<string, unknown>) {
  const t = wizardTestStore({
    'GET /common/locations': { items: [{ ...SYDNEY_FIXTURE, salesOpenAt: OPENS }] },
    ...answers,
  });
  const router = createMemoryRouter(
    [
      { path: '/queue/:locationId', element: <QueuePage /> },
      { path: '/create-booking', element: <p>wizard</p> },
    ],
    { initialEntries: ['/queue/loc-1'] },
  );
  render(
    <Provider store={t.store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...t, router };
}

describe('/queue/:locationId, the waiting room', () => {
  it('joins with one tap and counts down to the draw, explaining what happens', async () => {
    let joined = false;
    const t = renderQueue({
      'GET /queue/loc-1': () =>
        joined ? ticket({}) : new Response(JSON.stringify({ error: 'Not found', code: 'NOT_FOUND' }), { status: 404 }),
      'POST /queue/loc-1': () => ((joined = true), ticket({})),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Join the line' }));
    expect(await screen.findByText('You are in the line. Places are drawn when bookings open.')).toBeInTheDocument();
    expect(screen.getByTestId('queue-countdown')).toBeInTheDocument();
    expect(screen.getByText(/drawn at random at the opening moment/)).toBeInTheDocument();
    expect(t.calls).toContain('POST /queue/loc-1');
  });

  it('shows the place, how many are ahead and an honest estimate (none before anyone went in)', async () => {
    renderQueue({
      'GET /queue/loc-1': ticket({ status: 'waiting', position: 12, ahead: 11, estimatedWaitSeconds: null }),
    });
    expect(await screen.findByText('Your place in line: 12')).toBeInTheDocument();
    expect(screen.getByText('11 families are ahead of you.')).toBeInTheDocument();
    expect(screen.getByText('We will show an estimate once families start going in.')).toBeInTheDocument();
  });

  it('says "Sold out for now" with the waitlist one tap away', async () => {
    renderQueue({ 'GET /queue/loc-1': ticket({ status: 'sold_out', position: 4, ahead: 3 }) });
    expect(await screen.findByText('Sold out for now')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Join the waitlist' })).toHaveAttribute('href', '/create-booking');
  });

  it(
    "tells an admitted family it's its turn, until when, counting down, then takes it into the wizard at this " +
      'centre (issue 53 item 10)',
    async () => {
      const until = new Date(Date.now() + 9.5 * 60_000).toISOString();
      const t = renderQueue({
        'GET /queue/loc-1': ticket({ status: 'admitted', position: 1, ahead: 0, admittedUntil: until }),
      });
      const said = await screen.findByText(
        /^It's your turn at Kringle Sydney, Pitt Street! You have 10 minutes, until \d{1,2}:\d\d [ap]m AE[DS]T, to choose a session\.$/,
      );
      expect(said).toHaveAttribute('role', 'status');
      expect(screen.getByTestId('admission-countdown')).toHaveTextContent(/^9:[0-5]\d$/);
      expect(t.router.state.location.pathname).toBe('/queue/loc-1');
      await userEvent.click(screen.getByRole('button', { name: 'Choose a session' }));
      await waitFor(() => expect(t.router.state.location.pathname).toBe('/create-booking'));
      expect(t.store.getState().booking.location?.id).toBe('loc-1');
      expect(t.store.getState().booking.currentStep).toBe(stepIndex('bookingType'));
    },
  );

  it('a lapsed place (gone 5 minutes after the opening) is said, with one rejoin at the back (issue 55)', async () => {
    let rejoins = 0;
    const t = renderQueue({
      'GET /queue/loc-1': () =>
        rejoins === 1 ? ticket({ status: 'waiting', position: 40, ahead: 39 }) : ticket({ status: 'lapsed' }),
      'POST /queue/loc-1': () =>
        ++rejoins === 1 ? ticket({ status: 'waiting', position: 40, ahead: 39 }) : ticket({ status: 'lapsed' }),
    });
    expect(await screen.findByText('Your place has passed to the next family')).toHaveAttribute('role', 'status');
    await userEvent.click(screen.getByRole('button', { name: 'Rejoin at the back of the line' }));
    expect(await screen.findByText('Your place in line: 40')).toBeInTheDocument();
    expect(t.calls).toContain('POST /queue/loc-1');
  });

  it('a second rejoin is refused: said, without the button', async () => {
    renderQueue({
      'GET /queue/loc-1': ticket({ status: 'lapsed' }),
      'POST /queue/loc-1': ticket({ status: 'lapsed' }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Rejoin at the back of the line' }));
    expect(
      await screen.findByText('You have already rejoined this line once, so you cannot again.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rejoin at the back of the line' })).toBeNull();
  });
});
