import { addDays, DATE_PATTERN, localDateOf } from '@kringle/contracts/dates';
import { isValidEmail } from '@kringle/contracts/email';
import { formatAud } from '@kringle/contracts/money';
import {
  VOUCHER_MAX_CENTS,
  VOUCHER_MESSAGE_MAX,
  VOUCHER_MIN_CENTS,
  VOUCHER_SEND_AHEAD_DAYS,
  VOUCHER_STEP_CENTS,
  type BuyVoucherBody,
  type Voucher,
} from '@kringle/contracts/vouchers';

/**
 * "Today" and the send days of a voucher are the brand's (API.md: `sendOn` is "today to +60 days, in the brand's
 * time zone"; the API's VOUCHER_TIME_ZONE, decision 0112). The e-mail goes at 9 am there on the send day.
 */
export const VOUCHER_TIME_ZONE = 'Australia/Sydney';

export const voucherToday = (now: number) => localDateOf(new Date(now), VOUCHER_TIME_ZONE);
export const lastSendDay = (today: string) => addDays(today, VOUCHER_SEND_AHEAD_DAYS);

/** "$30" for a whole-dollar amount, "$30.50" otherwise. */
export const shortAud = (cents: number) => formatAud(cents).replace(/\.00$/, '');

export const AMOUNT_RULE =
  `Choose an amount from ${shortAud(VOUCHER_MIN_CENTS)} to ${shortAud(VOUCHER_MAX_CENTS)}, ` +
  `in steps of ${shortAud(VOUCHER_STEP_CENTS)}.`;

/** A typed amount in dollars ("45", "$45", "45.00") as cents; null when it is not an amount. */
export function dollarsOf(text: string): number | null {
  const match = /^\s*\$?\s*(\d{1,5})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** Why an amount cannot be a voucher's ('' when it can). */
export function amountProblem(cents: number | null): string {
  if (cents === null) return `Enter an amount in dollars, like 45. ${AMOUNT_RULE}`;
  if (cents < VOUCHER_MIN_CENTS || cents > VOUCHER_MAX_CENTS || cents % VOUCHER_STEP_CENTS !== 0) return AMOUNT_RULE;
  return '';
}

export interface GiftDraft {
  /** A suggested amount's cents, or 'other' with `otherAmount` as typed. */
  amount: number | 'other' | null;
  otherAmount: string;
  recipientName: string;
  recipientEmail: string;
  message: string;
  /** YYYY-MM-DD; empty: today. */
  sendOn: string;
}

export const EMPTY_GIFT: GiftDraft = {
  amount: null,
  otherAmount: '',
  recipientName: '',
  recipientEmail: '',
  message: '',
  sendOn: '',
};

export type GiftErrors = Partial<Record<'amount' | 'recipientName' | 'recipientEmail' | 'message' | 'sendOn', string>>;

/** The order the fields are on the page: the first refused takes the focus. */
export const GIFT_FIELDS = ['amount', 'recipientName', 'recipientEmail', 'message', 'sendOn'] as const;

export const giftCents = (draft: GiftDraft): number | null =>
  draft.amount === 'other' ? dollarsOf(draft.otherAmount) : draft.amount;

/**
 * The form checked as the API checks it (buyVoucherBodySchema), in words a family reads beside each field, and the
 * body to send. Today's send day is left out: the server's today is the one that counts.
 */
export function checkGift(
  draft: GiftDraft,
  today: string,
): { ok: true; body: BuyVoucherBody } | { ok: false; errors: GiftErrors } {
  const errors: GiftErrors = {};
  const cents = giftCents(draft);
  if (draft.amount === null) errors.amount = `Choose an amount. ${AMOUNT_RULE}`;
  else if (amountProblem(cents)) errors.amount = amountProblem(cents);
  const name = draft.recipientName.trim();
  if (!name) errors.recipientName = 'Enter who the gift is for.';
  else if (name.length > 80) errors.recipientName = 'Use at most 80 characters.';
  const email = draft.recipientEmail.trim();
  if (email && !isValidEmail(email)) errors.recipientEmail = 'Enter an email address like name@example.com.';
  const message = draft.message.trim();
  if (message.length > VOUCHER_MESSAGE_MAX) errors.message = `Use at most ${VOUCHER_MESSAGE_MAX} characters.`;
  const sendOn = draft.sendOn || today;
  if (!DATE_PATTERN.test(sendOn)) errors.sendOn = 'Choose the day to send it.';
  else if (sendOn < today || sendOn > lastSendDay(today))
    errors.sendOn = `Choose today or a day up to ${VOUCHER_SEND_AHEAD_DAYS} days ahead.`;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    body: {
      amountCents: cents!,
      recipientName: name,
      ...(email ? { recipientEmail: email } : {}),
      ...(message ? { message } : {}),
      ...(sendOn !== today ? { sendOn } : {}),
    },
  };
}

/** The API's field names (`body.amountCents`) on this form's fields, for a refusal the browser did not foresee. */
export function errorsFromDetails(details: { path: string; message: string }[] | undefined): GiftErrors {
  const fields: Record<string, keyof GiftErrors> = {
    'body.amountCents': 'amount',
    'body.recipientName': 'recipientName',
    'body.recipientEmail': 'recipientEmail',
    'body.message': 'message',
    'body.sendOn': 'sendOn',
  };
  const errors: GiftErrors = {};
  for (const d of details ?? []) {
    const field = fields[d.path];
    if (field && !errors[field]) errors[field] = d.message;
  }
  return errors;
}

/** "Monday 8 December" (and the year when it is not this one) of a calendar date. */
export function formatDay(date: string, thisYear?: string): string {
  const at = new Date(`${date}T12:00:00Z`);
  const sameYear = thisYear !== undefined && date.slice(0, 4) === thisYear.slice(0, 4);
  return new Intl.DateTimeFormat('en-AU', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    ...(sameYear ? {} : { year: 'numeric' }),
    timeZone: 'UTC',
  }).format(at);
}

/** "8 December 2029": the day an instant falls on in the brand's time zone. */
export function formatExpiry(instant: string): string {
  return new Intl.DateTimeFormat('en-AU', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: VOUCHER_TIME_ZONE,
  }).format(new Date(instant));
}

/** When the voucher's e-mail goes (or went), said to its buyer: "Sent Monday 8 December", "Sends today". */
export function deliveryWords(v: Pick<Voucher, 'sendOn' | 'sentAt'>, today: string): string {
  if (v.sentAt) {
    const day = localDateOf(new Date(v.sentAt), VOUCHER_TIME_ZONE);
    return day === today ? 'Sent today' : `Sent ${formatDay(day, today)}`;
  }
  return v.sendOn <= today ? 'Sends today' : `Sends ${formatDay(v.sendOn, today)}`;
}

/** Status words of a voucher as its buyer or holder sees it. */
export const VOUCHER_STATUS_WORDS: Record<Voucher['status'], string> = {
  pending: 'Waiting for payment',
  active: 'Ready to use',
  spent: 'Used up',
  expired: 'Expired',
  cancelled: 'Cancelled',
};
