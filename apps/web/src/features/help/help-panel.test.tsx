import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { POLICY_FIXTURE, wizardTestStore } from '../booking-wizard/state/wizard-test-store';
import { HelpPanel } from './help-panel';

function renderPanel(policy: unknown) {
  const t = wizardTestStore({ 'GET /common/policy': policy });
  render(
    <Provider store={t.store}>
      <MemoryRouter>
        <HelpPanel open onOpenChange={() => {}} />
      </MemoryRouter>
    </Provider>,
  );
  return t;
}

describe('HelpPanel booking policy', () => {
  it("states the operator's numbers from GET /common/policy", async () => {
    const { calls } = renderPanel({
      ...POLICY_FIXTURE,
      refundCutoffHours: 72,
      rescheduleCutoffHours: 36,
      rescheduleLimit: 3,
      maxUpcomingBookings: 4,
      holdMinutes: 7,
      holdRefreshes: 1,
    });
    expect(
      await screen.findByText('Cancel up to 72 hours before for a full refund. Later cancellations are not refunded.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Reschedule up to 36 hours before your session, at most 3 times, at the same location.'),
    ).toBeInTheDocument();
    expect(screen.getByText('You can have up to 4 upcoming bookings at a time.')).toBeInTheDocument();
    expect(
      screen.getByText(
        /hold it for 7 minutes while you finish\. If you need more time, you can extend the hold once\./,
        { ignore: false },
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/48 hours/)).not.toBeInTheDocument();
    expect(calls).toContain('GET /common/policy');
  });

  it('says so when the policy cannot be loaded, rather than guessing numbers', async () => {
    renderPanel(new Response(JSON.stringify({ error: 'Down', code: 'SERVICE_UNAVAILABLE' }), { status: 503 }));
    expect(
      await screen.findByText('We could not load the booking policy just now.', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/hours before/)).not.toBeInTheDocument();
  });
});
