import { render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import type { Package } from '@kringle/contracts/catalogue';
import type { Voucher } from '@kringle/contracts/vouchers';
import { cartLine } from '../checkout/cart-math';
import { setLocation, setReservationData, toggleSlotType, upsertItem } from '../state/booking-slice';
import { SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';
import { OverviewStep } from './overview-step';

// The Overview step's test API and render, shared by overview-step.test.tsx and overview-vouchers.test.tsx:
// one POST /cart prices promo, donation, vouchers and credit together, so both files see the same prices.

const classic: Package = {
  id: 'p1',
  type: 'package',
  name: 'Classic Print',
  description: '',
  includes: [],
  priceCents: 3995,
  currency: 'AUD',
  imageUrl: '',
  maxQuantity: 3,
};
const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
export const REFUSAL = 'NOPE is not a promo code we know. Check the spelling, or book without it.';

/** Gift vouchers the test API knows, by code, with their balances. */
const BALANCES: Record<string, number> = { 'ABCD-EFGH-JKMN': 3000, 'PQRS-TUVW-XYZ2': 10_000, 'HJKM-NPQR-STUV': 500 };
export const NO_VOUCHER = 'There is no gift voucher with this code.';

/**
 * POST /cart as the API prices it: XMAS10 takes 10% off, any other code is unknown; vouchers pay next, in order,
 * each as much as it holds of what is left, then credit.
 */
function cartAnswer(_url: string, init: RequestInit) {
  const body = JSON.parse(String(init.body)) as {
    amount: number;
    promoCode?: string;
    donationCents?: number;
    useCredit?: boolean;
    vouchers?: string[];
  };
  const unknown = (body.vouchers ?? []).findIndex((c) => !(c in BALANCES));
  if (unknown >= 0)
    return json(
      {
        error: NO_VOUCHER,
        code: 'VOUCHER_INVALID',
        details: [{ path: `body.vouchers.${unknown}`, message: NO_VOUCHER }],
      },
      409,
    );
  if (body.promoCode && body.promoCode !== 'XMAS10')
    return json(
      { error: REFUSAL, code: 'PROMO_INVALID', details: [{ path: 'body.promoCode', message: 'unknown' }] },
      409,
    );
  const cents = body.promoCode ? Math.round(body.amount / 10) : 0;
  const total = body.amount - cents + (body.donationCents ?? 0);
  let left = total;
  const vouchers = (body.vouchers ?? []).flatMap((code) => {
    const paid = Math.min(left, BALANCES[code]!);
    left -= paid;
    return paid > 0 ? [{ kind: 'voucher', code, cents: paid }] : [];
  });
  const credit = body.useCredit ? Math.min(left, CREDIT) : 0;
  return json(
    {
      id: 'c1',
      reservationId: 'h1',
      items: [],
      amountCents: body.amount,
      gstCents: Math.round((body.amount - cents) / 11),
      discounts: body.promoCode ? [{ kind: 'promo', code: body.promoCode, cents }] : [],
      payments: [...vouchers, ...(credit > 0 ? [{ kind: 'credit', cents: credit }] : [])],
      donationCents: body.donationCents ?? 0,
      dueCents: left - credit,
      currency: 'AUD',
    },
    201,
  );
}

export const CHARITY = { name: 'Kids Cancer Care', suggestedCents: [200, 500, 1000], maxCents: 10000 };
/** The family's account credit in these tests, when it has some. */
export const CREDIT = 2500;

export function renderStep(quantity = 2, charityName: string | null = null, creditCents = 0, owned: Voucher[] = []) {
  const sent: { promoCode?: string; donationCents?: number; useCredit?: boolean; vouchers?: string[] }[] = [];
  const t = wizardTestStore({
    'GET /common/charity': { ...CHARITY, name: charityName },
    'GET /user/credit': { balanceCents: creditCents, items: [] },
    'GET /vouchers': { items: owned },
    'GET /product/packages': { items: [classic] },
    'GET /product/addons': { items: [] },
    'POST /cart': (url: string, init: RequestInit) => {
      sent.push(JSON.parse(String(init.body)) as { promoCode?: string; donationCents?: number });
      return cartAnswer(url, init);
    },
  });
  t.store.dispatch(setLocation(SYDNEY_FIXTURE));
  t.store.dispatch(toggleSlotType(SYDNEY_FIXTURE.slotTypes[0]!));
  t.store.dispatch(setReservationData({ holdId: 'h1', slotId: 's1', expiresAt: '2099-01-01T00:00:00.000Z' }));
  t.store.dispatch(upsertItem(cartLine(classic, quantity)));
  const view = () =>
    render(
      <Provider store={t.store}>
        <MemoryRouter>
          <OverviewStep focusOnMount={false} />
        </MemoryRouter>
      </Provider>,
    );
  return { ...t, sent, view };
}

export const order = () => within(screen.getByRole('region', { name: 'Your order' }));
