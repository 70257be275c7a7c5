import { createHash } from 'node:crypto';
import type { CardDetails } from './stripe-objects';
import { StripeError } from './stripe-errors';

/** What happens when a card is charged: Stripe's documented behaviour of its test numbers. */
export type CardOutcome =
  | { kind: 'success'; dispute?: true }
  | { kind: 'decline'; code: string; declineCode: string; message: string }
  | { kind: 'three_d_secure' };

const DECLINED = 'Your card was declined.';

const TEST_CARDS: Record<string, { outcome: CardOutcome; country?: string; funding?: 'debit' }> = {
  '4242424242424242': { outcome: { kind: 'success' } },
  '4000056655665556': { outcome: { kind: 'success' }, funding: 'debit' },
  '4000000360000006': { outcome: { kind: 'success' }, country: 'AU' },
  '5555555555554444': { outcome: { kind: 'success' } },
  '2223003122003222': { outcome: { kind: 'success' } },
  '378282246310005': { outcome: { kind: 'success' } },
  // Stripe's "disputed" card: the payment succeeds, then the cardholder disputes it as fraudulent.
  '4000000000000259': { outcome: { kind: 'success', dispute: true } },
  '4000000000000002': { outcome: decline('card_declined', 'generic_decline', DECLINED) },
  '4000000000009995': { outcome: decline('card_declined', 'insufficient_funds', 'Your card has insufficient funds.') },
  '4000000000009987': { outcome: decline('card_declined', 'lost_card', DECLINED) },
  '4000000000009979': { outcome: decline('card_declined', 'stolen_card', DECLINED) },
  '4000000000000069': { outcome: decline('expired_card', 'expired_card', 'Your card has expired.') },
  '4000000000000127': { outcome: decline('incorrect_cvc', 'incorrect_cvc', "Your card's security code is incorrect.") },
  '4000000000000119': {
    outcome: decline(
      'processing_error',
      'processing_error',
      'An error occurred while processing your card. Try again in a little bit.',
    ),
  },
  '4000002500003155': { outcome: { kind: 'three_d_secure' } },
  '4000002760003184': { outcome: { kind: 'three_d_secure' } },
  '4000000000003220': { outcome: { kind: 'three_d_secure' } },
};

function decline(code: string, declineCode: string, message: string): CardOutcome {
  return { kind: 'decline', code, declineCode, message };
}

// A valid number that is not a test card is a live card: Stripe declines it in test mode.
const LIVE_CARD = decline(
  'card_declined',
  'test_mode_live_card',
  'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test ' +
    'cards, visit: https://stripe.com/docs/testing.',
);

/** Shorthand payment methods Stripe accepts in test mode (`payment_method: 'pm_card_visa'`). */
export const TEST_PAYMENT_METHODS: Record<string, string> = {
  pm_card_visa: '4242424242424242',
  pm_card_mastercard: '5555555555554444',
  pm_card_amex: '378282246310005',
  pm_card_au: '4000000360000006',
  pm_card_createDispute: '4000000000000259',
  pm_card_chargeDeclined: '4000000000000002',
  pm_card_chargeDeclinedInsufficientFunds: '4000000000009995',
  pm_card_chargeDeclinedExpiredCard: '4000000000000069',
  pm_card_authenticationRequired: '4000002760003184',
  pm_card_threeDSecure2Required: '4000000000003220',
};

export interface CardInput {
  number: string;
  expMonth: string;
  expYear: string;
  cvc?: string;
}

export interface ValidCard {
  details: CardDetails;
  outcome: CardOutcome;
}

const PARAM = 'payment_method_data[card]';

/** Validates card data like Stripe does when it creates the PaymentMethod (402 card_error). */
export function validateCard(input: CardInput, now = new Date()): ValidCard {
  // Browsers' card fields keep the spaces people type; Stripe.js strips them before sending.
  const number = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number))
    throw cardError('invalid_number', 'Your card number is invalid.', `${PARAM}[number]`);
  if (!luhnValid(number)) throw cardError('incorrect_number', 'Your card number is incorrect.', `${PARAM}[number]`);
  const month = /^\d{1,2}$/.test(input.expMonth) ? Number(input.expMonth) : NaN;
  if (!(month >= 1 && month <= 12)) {
    throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", `${PARAM}[exp_month]`);
  }
  const rawYear = /^\d{2}$|^\d{4}$/.test(input.expYear) ? Number(input.expYear) : NaN;
  const year = rawYear < 100 ? 2000 + rawYear : rawYear;
  const thisYear = now.getUTCFullYear();
  if (!(year >= thisYear && year <= thisYear + 50)) {
    throw cardError('invalid_expiry_year', "Your card's expiration year is invalid.", `${PARAM}[exp_year]`);
  }
  if (year === thisYear && month < now.getUTCMonth() + 1) {
    throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", `${PARAM}[exp_month]`);
  }
  const brand = cardBrand(number);
  const cvcLength = brand === 'amex' ? 4 : 3;
  if (input.cvc !== undefined && !new RegExp(`^\\d{${cvcLength}}$`).test(input.cvc)) {
    throw cardError('invalid_cvc', "Your card's security code is invalid.", `${PARAM}[cvc]`);
  }
  const known = TEST_CARDS[number];
  return {
    outcome: known?.outcome ?? LIVE_CARD,
    details: {
      brand,
      country: known?.country ?? 'US',
      exp_month: month,
      exp_year: year,
      funding: known?.funding ?? 'credit',
      last4: number.slice(-4),
      fingerprint: createHash('sha256').update(number).digest('base64url').slice(0, 16),
    },
  };
}

export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function cardBrand(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}

function cardError(code: string, message: string, param: string): StripeError {
  return new StripeError({ status: 402, type: 'card_error', code, message, param });
}
