/** The sandbox card form's fields, as typed. */
export interface CardFields {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
}

export type CardErrors = Record<keyof CardFields, string>;

export const digitsOnly = (value: string) => value.replace(/\D/g, '');

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** "4242424242424242" → "4242 4242 4242 4242" as the customer types (at most 19 digits). */
export const formatCardNumber = (value: string) =>
  digitsOnly(value)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/** "1228" → "12 / 28"; keeps what is typed readable without fighting the cursor. */
export function formatExpiry(value: string): string {
  const d = digitsOnly(value).slice(0, 4);
  return d.length > 2 ? `${d.slice(0, 2)} / ${d.slice(2)}` : d;
}

/** "12 / 28" → { month: 12, year: 2028 }, or null when it is not a month and a two-digit year. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const d = digitsOnly(value);
  if (d.length !== 4) return null;
  const month = Number(d.slice(0, 2));
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(d.slice(2)) };
}

/** Plain-words errors per field; a field is fine when its message is empty (spec §5 errors object). */
export function validateCard(fields: CardFields, now: Date = new Date()): CardErrors {
  const number = digitsOnly(fields.number);
  const expiry = parseExpiry(fields.expiry);
  const thisMonth = now.getFullYear() * 12 + now.getMonth();
  return {
    number: !number
      ? 'Enter your card number.'
      : number.length < 12 || !luhnValid(number)
        ? 'Check your card number: it does not look right.'
        : '',
    expiry: !fields.expiry.trim()
      ? 'Enter the expiry date, like 08 / 29.'
      : !expiry
        ? 'Enter the expiry date as month and year, like 08 / 29.'
        : expiry.year * 12 + (expiry.month - 1) < thisMonth
          ? 'This card has expired.'
          : '',
    cvc: !fields.cvc.trim()
      ? 'Enter the 3 or 4 digit security code.'
      : !/^\d{3,4}$/.test(fields.cvc.trim())
        ? 'The security code is 3 or 4 digits.'
        : '',
    name: fields.name.trim() ? '' : 'Enter the name on the card.',
  };
}
