/**
 * SMS wording (decision 0100): each names the brand first and fits one segment where it can:
 * 160 characters of the GSM 7-bit alphabet, or 70 once any other character (an emoji, a curly
 * quote, a name in another script) makes the message UCS-2. Longer text is cut at a word with "…"
 * only where the variable part (a staff message) would push it past one segment.
 */
const GSM7 =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ ' +
  '!"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENDED = '^{}\\[~]|€';

/** Characters as the network counts them (an extended GSM character takes two), and the segment size. */
export function smsLength(text: string): { units: number; perSegment: number } {
  let units = 0;
  for (const ch of text) {
    if (GSM7.includes(ch)) units += 1;
    else if (GSM7_EXTENDED.includes(ch)) units += 2;
    else return { units: [...text].length, perSegment: 70 };
  }
  return { units, perSegment: 160 };
}

export const fitsOneSegment = (text: string) => {
  const { units, perSegment } = smsLength(text);
  return units <= perSegment;
};

/** `head` + `tail`, with `tail` shortened at a word boundary until the whole fits one segment. */
export function fitted(head: string, tail: string): string {
  if (fitsOneSegment(head + tail)) return head + tail;
  const words = tail.split(' ');
  while (words.length > 1) {
    words.pop();
    const candidate = `${head}${words.join(' ')}…`;
    if (fitsOneSegment(candidate)) return candidate;
  }
  return head.trimEnd();
}

const at = (d: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-AU', { timeZone, hour: 'numeric', minute: '2-digit' }).format(d).replace(' ', '');
const day = (d: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-AU', { timeZone, weekday: 'short', day: 'numeric', month: 'short' }).format(d);

export interface SmsBooking {
  reference: string;
  locationName: string;
  startAt: Date;
  timezone: string;
}

export const reminderSms = (brand: string, b: SmsBooking) =>
  fitted(
    `${brand}: see you tomorrow at ${at(b.startAt, b.timezone)} for photos with Santa, `,
    `${b.locationName}. Ref ${b.reference}. Reply STOP to opt out`,
  );

export const delaySms = (brand: string, b: SmsBooking, minutes: number, expected: Date, message?: string | null) =>
  fitted(
    `${brand}: Santa is running about ${minutes} min late at ${b.locationName}. Your ${at(b.startAt, b.timezone)} ` +
      `session should now start around ${at(expected, b.timezone)}. `,
    message ? `${message}` : 'Reply STOP to opt out',
  );

export const closureSms = (brand: string, b: SmsBooking) =>
  fitted(
    `${brand}: sorry, your Santa session ${day(b.startAt, b.timezone)} ${at(b.startAt, b.timezone)} (${b.reference}) ` +
      `had to close. `,
    'We have e-mailed what happens next. Reply STOP to opt out',
  );

export const moveSms = (brand: string, b: SmsBooking) =>
  fitted(
    `${brand}: your Santa session ` +
      `${b.reference} moved to ${day(b.startAt, b.timezone)} ${at(b.startAt, b.timezone)}, ` +
      `${b.locationName}. `,
    'Reply STOP to opt out',
  );
