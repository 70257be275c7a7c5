import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { aBooking } from './booking-fixture';
import { BookingList } from './booking-list';
import { renderWithApi } from './bookings-test-store';

function renderList(respond: (url: URL) => unknown, tab: 'upcoming' | 'past' = 'upcoming') {
  const onBookNow = vi.fn();
  const { calls } = renderWithApi(
    <BookingList tab={tab} busy={null} onAction={() => {}} onBookNow={onBookNow} />,
    (_call, url) => respond(url),
  );
  return { paths: () => calls.map((c) => `/api/v1${c.path}`), onBookNow };
}

const first = aBooking({
  id: '11111111-1111-4111-8111-111111111111',
  reference: 'KR-AAAAA',
  status: 'payment_pending',
  canReschedule: false,
  refundableCents: 0,
});
const second = aBooking({
  id: '22222222-2222-4222-8222-222222222222',
  reference: 'KR-BBBBB',
  status: 'payment_pending',
  canReschedule: false,
  refundableCents: 0,
});

describe('BookingList', () => {
  it('shows skeletons, then the first page, and loads the next with the cursor', async () => {
    const { paths } = renderList((url) =>
      url.searchParams.get('cursor') === 'page-2'
        ? { items: [second], nextCursor: null }
        : { items: [first], nextCursor: 'page-2' },
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading your bookings');
    expect((await screen.findAllByText('KR-AAAAA'))[0]).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more bookings' }));
    expect((await screen.findAllByText('KR-BBBBB'))[0]).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more bookings' })).toBeNull();
    expect(paths()).toEqual(['/api/v1/bookings/upcoming-bookings', '/api/v1/bookings/upcoming-bookings?cursor=page-2']);
  });

  it('renders every card in order, the first ones before the rest, and Load more after the last', async () => {
    const third = aBooking({
      id: '33333333-3333-4333-8333-333333333333',
      reference: 'KR-CCCCC',
      status: 'payment_pending',
      canReschedule: false,
      refundableCents: 0,
    });
    renderList(() => ({ items: [first, second, third], nextCursor: 'page-2' }));
    await screen.findByRole('button', { name: 'Load more bookings' });
    expect(screen.getAllByRole('article').map((card) => card.dataset.reference)).toEqual([
      'KR-AAAAA',
      'KR-BBBBB',
      'KR-CCCCC',
    ]);
    // The bookings' own list (each card lists its items too).
    expect(screen.getAllByRole('list')[0]).toHaveAttribute('aria-busy', 'false');
  });

  it('offers Book a session when nothing is coming up', async () => {
    const { onBookNow } = renderList(() => ({ items: [], nextCursor: null }));
    const empty = (await screen.findByText('No upcoming visits with Santa yet.')).parentElement!;
    await userEvent.click(within(empty).getByRole('button', { name: 'Book a session' }));
    expect(onBookNow).toHaveBeenCalledOnce();
  });

  it('reads the past tab from past-bookings and says what will appear there', async () => {
    const { paths } = renderList(() => ({ items: [], nextCursor: null }), 'past');
    expect(await screen.findByText('Nothing here yet.')).toBeInTheDocument();
    expect(paths()).toEqual(['/api/v1/bookings/past-bookings']);
  });
});
