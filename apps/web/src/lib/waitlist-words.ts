/** How the waitlist names a day and a place in line (the Session step and My Bookings say it alike). */
const longDay = new Intl.DateTimeFormat('en-AU', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' });

/** "2026-12-16" → "Wednesday 16 December" (a calendar date, no zone shift). */
export const waitlistDayName = (date: string) => longDay.format(new Date(`${date}T00:00:00Z`));

/** 1 → "1st", 2 → "2nd", 11 → "11th", 22 → "22nd". */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}
