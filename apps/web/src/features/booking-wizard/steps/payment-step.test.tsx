import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { cartLine } from '../checkout/cart-math';
import { setCheckoutData, setLocation, setReservationData, toggleSlotType, upsertItem } from '../state/booking-slice';
import { SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';
import { PaymentStep } from './payment-step';

const classic = { id: 'p1', type: 'package', priceCents: 3995 } as Parameters<typeof cartLine>[0];

function Where() {
  const { pathname, search } = useLocation();
  return <p>At {pathname + search}</p>;
}

function renderStep(checkout: { client_secret: string | null; amountCents: number }) {
  const t = wizardTestStore({ 'GET /payments/config': { provider: 'stripe', publishableKey: 'pk', sandbox: true } });
  t.store.dispatch(setLocation(SYDNEY_FIXTURE));
  t.store.dispatch(toggleSlotType(SYDNEY_FIXTURE.slotTypes[0]!));
  t.store.dispatch(setReservationData({ holdId: 'h1', slotId: 's1', expiresAt: '2099-01-01T00:00:00.000Z' }));
  t.store.dispatch(upsertItem(cartLine(classic, 1)));
  t.store.dispatch(setCheckoutData({ bookingId: 'b1', message: 'Your session is held.', ...checkout }));
  render(
    <Provider store={t.store}>
      <MemoryRouter initialEntries={['/create-booking']}>
        <Routes>
          <Route path="/create-booking" element={<PaymentStep focusOnMount={false} />} />
          <Route path="/success" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

describe('Payment after a promo code', () => {
  it('asks for what the card pays (the checkout amount), not the goods', () => {
    renderStep({ client_secret: 'pi_1_secret_x', amountCents: 3595 });
    expect(screen.getByText('Amount to pay (incl. GST)').nextElementSibling).toHaveTextContent('$35.95');
  });

  it('with nothing left for the card, goes straight to the confirmation', () => {
    renderStep({ client_secret: null, amountCents: 0 });
    expect(screen.getByText('At /success?bookingId=b1')).toBeInTheDocument();
  });
});
