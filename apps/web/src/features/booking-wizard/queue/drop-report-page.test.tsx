import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DropReportPage } from './drop-report-page';
import { wizardTestStore } from '../state/wizard-test-store';

function renderReport(answer: unknown) {
  const t = wizardTestStore({
    'GET /queue/loc-1/report': answer,
    'GET /common/catalogue': { locations: [{ id: 'loc-1', name: 'Kringle Sydney', timezone: 'Australia/Sydney' }] },
  });
  const router = createMemoryRouter(
    [{ path: '/drop-report/:locationId', element: <DropReportPage brandName="Kringle" /> }],
    {
      initialEntries: ['/drop-report/loc-1'],
    },
  );
  render(
    <Provider store={t.store}>
      <RouterProvider router={router} />
    </Provider>,
  );
}

describe('/drop-report/:locationId, the drop published (issue 55)', () => {
  it('shows the draw to check, the admissions by minute, the time to hold and when it sold out', async () => {
    renderReport({
      final: true,
      seedHash: 'ab'.repeat(32),
      seed: 'cd'.repeat(32),
      entrants: ['t1', 't2', 't3'],
      admittedByMinute: [
        { minute: '2026-12-01T11:30', admitted: 2 },
        { minute: '2026-12-01T11:31', admitted: 1 },
      ],
      heldWithinSeconds: { p50: 21.5, p95: 80 },
      soldOutAt: '2026-12-01T00:31:10.000Z',
    });
    expect(await screen.findByText('This drop is over: these figures are final.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'How bookings opened at Kringle Sydney' })).toBeInTheDocument();
    expect(screen.getByText('1 Dec 2026, 11:31:10 am AEDT')).toBeInTheDocument();
    expect(screen.getByText('half within 21.5 seconds; 95 in 100 within 80 seconds')).toBeInTheDocument();
    expect(screen.getByText('2026-12-01 11:31')).toBeInTheDocument();
    expect(screen.getByText('cd'.repeat(32))).toBeInTheDocument();
    expect(screen.getByText('Families in the draw').nextSibling).toHaveTextContent('3');
  });

  it('before the draw: says to come back after the opening', async () => {
    renderReport(new Response(JSON.stringify({ error: 'Not found', code: 'NOT_FOUND' }), { status: 404 }));
    expect(await screen.findByText(/The draw has not happened yet/)).toBeInTheDocument();
  });
});
