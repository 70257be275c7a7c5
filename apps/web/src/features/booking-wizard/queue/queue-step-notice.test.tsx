import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { QueueTicket } from '@kringle/contracts/queue';
import { QueueStepNotice } from './queue-step-notice';
import { SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';

const LINE_OPEN = {
  ...SYDNEY_FIXTURE,
  salesOpenAt: new Date(Date.now() + 20 * 60_000).toISOString(),
  queueOpensAt: new Date(Date.now() - 10 * 60_000).toISOString(),
};
const ticket = (t: Partial<QueueTicket>): QueueTicket => ({
  status: 'before_open',
  position: null,
  ahead: null,
  estimatedWaitSeconds: null,
  admittedUntil: null,
  opensAt: LINE_OPEN.salesOpenAt,
  wants: null,
  reservation: null,
  ...t,
});

function renderNotice(location: typeof LINE_OPEN, answers: Record<string, unknown>) {
  const t = wizardTestStore(answers);
  render(
    <Provider store={t.store}>
      <MemoryRouter>
        <QueueStepNotice location={location} />
      </MemoryRouter>
    </Provider>,
  );
  return t;
}

/**
 * Issue 53 item 10: step 1 sent an admitted family back to the line, and told one that never joined nothing until it
 * picked a time.
 */
describe("the Location step's waiting-room notice", () => {
  it('tells a family that never joined, at step 1, that it must join before it can pick a time', async () => {
    renderNotice(LINE_OPEN, {});
    expect(
      await screen.findByText(/opens bookings through a waiting room, and you are not in it yet\./),
    ).toBeInTheDocument();
    expect(screen.getByText(/You need a place in the line to pick a time/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Join the waiting room' })).toHaveAttribute('href', '/queue/loc-1');
  });

  it('tells an admitted family it is its turn, with the time left, and does not send it back to the line', async () => {
    const until = new Date(Date.now() + 4.5 * 60_000).toISOString();
    renderNotice(LINE_OPEN, {
      'GET /queue/loc-1': ticket({ status: 'admitted', position: 3, ahead: 0, admittedUntil: until }),
    });
    expect(
      await screen.findByText(/^It's your turn at Kringle Sydney, Pitt Street! You have 5 minutes, until/),
    ).toBeInTheDocument();
    expect(screen.getByTestId('admission-countdown')).toHaveTextContent(/^4:[0-5]\d$/);
    expect(screen.queryByRole('link', { name: /waiting room/ })).toBeNull();
  });

  it('tells a family in the line its place and links back to it', async () => {
    renderNotice(LINE_OPEN, { 'GET /queue/loc-1': ticket({ status: 'waiting', position: 7, ahead: 6 }) });
    expect(
      await screen.findByText("You are in Kringle Sydney, Pitt Street's waiting room, place 7."),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the waiting room' })).toBeInTheDocument();
  });

  it('before the line opens, says when it opens; with no line, says nothing and asks nothing', async () => {
    const later = { ...LINE_OPEN, queueOpensAt: new Date(Date.now() + 60 * 60_000).toISOString() };
    const t = renderNotice(later, {});
    expect(
      screen.getByText(/Its waiting room opens \w{3} \d{1,2} \w{3,4}, \d{1,2}:\d\d [ap]m AE[DS]T\./),
    ).toBeInTheDocument();
    expect(t.calls.filter((c) => c.includes('/queue/'))).toEqual([]);
  });
});
