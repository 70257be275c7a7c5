import { describe, expect, it, vi } from 'vitest';
import { confirmWithSandbox, outcomeOf } from './sandbox-confirm';

const card = { number: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '123', name: 'Holly Berry' };
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('sandbox confirm', () => {
  it("sends Stripe's browser confirm, form-encoded with the publishable key", async () => {
    const fetchFn = vi.fn(async () => json({ id: 'pi_1', status: 'succeeded' }));
    const outcome = await confirmWithSandbox({
      sandboxUrl: 'http://127.0.0.1:9/',
      publishableKey: 'pk_test_x',
      clientSecret: 'pi_1_secret_abc',
      card,
      returnUrl: 'http://app/success?bookingId=b1',
      fetchFn,
    });
    expect(outcome).toEqual({ kind: 'succeeded' });
    const [url, init] = fetchFn.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://127.0.0.1:9/v1/payment_intents/pi_1/confirm');
    expect(init.headers).toMatchObject({
      Authorization: 'Bearer pk_test_x',
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    const body = Object.fromEntries(init.body as URLSearchParams);
    expect(body).toMatchObject({
      client_secret: 'pi_1_secret_abc',
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': '4242424242424242',
      'payment_method_data[card][exp_month]': '12',
      'payment_method_data[card][exp_year]': '2030',
      'payment_method_data[card][cvc]': '123',
      return_url: 'http://app/success?bookingId=b1',
    });
  });

  it('reads declines, 3-D Secure and card errors', async () => {
    expect(
      outcomeOf({
        id: 'pi',
        status: 'requires_payment_method',
        last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' },
      }),
    ).toEqual({
      kind: 'declined',
      message: 'Your card was declined because it does not have enough funds. Please try another card.',
    });
    expect(
      outcomeOf({
        id: 'pi',
        status: 'requires_action',
        next_action: { type: 'redirect_to_url', redirect_to_url: { url: 'http://bank/3ds/t' } },
      }),
    ).toEqual({ kind: 'redirect', url: 'http://bank/3ds/t' });
    const fetchFn = vi.fn(async () =>
      json({ error: { type: 'card_error', code: 'incorrect_number', message: 'Your card number is incorrect.' } }, 402),
    );
    expect(
      await confirmWithSandbox({
        sandboxUrl: 'http://s',
        publishableKey: 'pk',
        clientSecret: 'pi_1_secret_x',
        card,
        returnUrl: 'http://r',
        fetchFn,
      }),
    ).toEqual({ kind: 'declined', message: 'Your card number is incorrect.' });
  });
});
