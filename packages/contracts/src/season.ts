import { z } from 'zod';
import { DATE_PATTERN, TIME_PATTERN, localDateOf, localTimeOf, zonedToInstant } from './dates';

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const slug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lower-case words joined by hyphens');
const date = z.string().regex(DATE_PATTERN, 'a date like 2026-12-05');
const window = z
  .string()
  .regex(/^\d\d:\d\d-\d\d:\d\d$/, 'a time window like 10:00-17:30')
  .transform((v, ctx) => {
    const [from, to] = v.split('-') as [string, string];
    if (!TIME_PATTERN.test(from) || !TIME_PATTERN.test(to) || from >= to) {
      ctx.addIssue({ code: 'custom', message: `"${v}" is not a window of one day (start before end, 00:00-23:59)` });
      return z.NEVER;
    }
    return { from, to };
  });
function timezoneOk(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-AU', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
const timezone = z.string().refine(timezoneOk, 'an IANA time zone such as Australia/Sydney');

const location = z.strictObject({
  slug,
  name: z.string().min(1).max(120),
  address: z.string().min(1).max(200),
  suburb: z.string().min(1).max(80),
  state: z.enum(['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT']),
  timezone,
  imageUrl: z.string().max(500).default(''),
  seasonStart: date,
  seasonEnd: date,
  /** Which session type runs on which weekdays, and when. */
  sessions: z.array(z.strictObject({ slotType: slug, days: z.array(z.enum(WEEKDAYS)).min(1), hours: window })).min(1),
  /** Santa's breaks, every day; a break inside a session window becomes a break slot. */
  breaks: z.array(window).default([]),
  closedDates: z.array(date).default([]),
  /** When bookings open, a local date-time in the location's zone; absent: on sale once loaded. */
  salesOpenAt: z.string().refine(isLocalDateTime, 'a local date and time like 2026-11-01T09:00').optional(),
  /**
   * The fair start (decision 0053): a line opening this long before salesOpenAt; 0 = no line. Default 30 with a
   * salesOpenAt.
   */
  queue: z
    .strictObject({
      opensMinutesBefore: z
        .number()
        .int()
        .min(0)
        .max(24 * 60),
    })
    .optional(),
});

/** Minutes the line opens before the sales do: 30 unless the file says; no salesOpenAt, no line. */
export const DEFAULT_QUEUE_OPENS_MINUTES_BEFORE = 30;
export function queueOpensMinutesBefore(loc: { salesOpenAt?: string; queue?: { opensMinutesBefore: number } }): number {
  return loc.salesOpenAt ? (loc.queue?.opensMinutesBefore ?? DEFAULT_QUEUE_OPENS_MINUTES_BEFORE) : 0;
}

function isLocalDateTime(v: string): boolean {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d$/.test(v) && DATE_PATTERN.test(v.slice(0, 10)) && TIME_PATTERN.test(v.slice(11));
}

/**
 * The instant a location's local `salesOpenAt` names, or null when the local time does not exist there (a
 * daylight-saving gap).
 */
export function salesOpenInstant(localDateTime: string, timeZone: string): Date | null {
  const [day, time] = localDateTime.split('T') as [string, string];
  let instant: Date;
  try {
    instant = zonedToInstant(day, time, timeZone);
  } catch {
    return null; // an unknown zone, reported on its own field
  }
  return localDateOf(instant, timeZone) === day && localTimeOf(instant, timeZone) === time ? instant : null;
}

/** Digital photos one unit includes: a count, or "all" of the family's photos (issue 39); omitted = none. */
const digitalPhotos = z.union([z.number().int().min(0).max(1000), z.literal('all')]).optional();

/** How digitalPhotos is stored: null none, ALL_PHOTOS for "all", else the count. */
export const ALL_PHOTOS = -1;
export function storedDigitalPhotos(v: number | 'all' | undefined): number | null {
  return v === 'all' ? ALL_PHOTOS : (v ?? null);
}

/** What one more digital photo costs when the packages' allowance is used (issue 39), GST included. */
export const DEFAULT_EXTRA_PHOTO_PRICE_CENTS = 900;

export const seasonSchema = z
  .strictObject({
    /** The price of each photo bought beyond the allowance, in the gallery (decision 0065); omitted = $9.00. */
    extraPhotoPriceCents: z.number().int().min(1).max(100_00).default(DEFAULT_EXTRA_PHOTO_PRICE_CENTS),
    slotTypes: z
      .array(
        z.strictObject({
          slug,
          name: z.string().min(1).max(80),
          description: z.string().min(1).max(500),
          durationMinutes: z.number().int().min(5).max(120),
          /** Pet nights: families may list pets in who is coming. */
          allowsPets: z.boolean().default(false),
        }),
      )
      .min(1),
    locations: z.array(location).min(1),
    packages: z
      .array(
        z.strictObject({
          slug,
          name: z.string().min(1).max(80),
          description: z.string().min(1).max(500),
          includes: z.array(z.string().min(1).max(120)).default([]),
          priceCents: z.number().int().min(1).max(10_000_00),
          imageUrl: z.string().max(500).default(''),
          maxQuantity: z.number().int().min(1).max(3).default(3),
          /** Slot-type slugs the package is offered for; omitted = all. */
          slotTypes: z.array(slug).optional(),
          digitalPhotos,
        }),
      )
      .min(1),
    addOns: z
      .array(
        z.strictObject({
          slug,
          name: z.string().min(1).max(80),
          description: z.string().min(1).max(500),
          priceCents: z.number().int().min(1).max(10_000_00),
          maxQuantity: z.number().int().min(1).max(10).default(10),
          digitalPhotos,
        }),
      )
      .default([]),
  })
  .superRefine((season, ctx) => {
    const typeSlugs = new Set(season.slotTypes.map((t) => t.slug));
    const duplicates = (list: { slug: string }[], path: string) => {
      const seen = new Set<string>();
      list.forEach((item, i) => {
        if (seen.has(item.slug))
          ctx.addIssue({ code: 'custom', path: [path, i, 'slug'], message: `duplicate slug "${item.slug}"` });
        seen.add(item.slug);
      });
    };
    duplicates(season.slotTypes, 'slotTypes');
    duplicates(season.locations, 'locations');
    duplicates(season.packages, 'packages');
    duplicates(season.addOns, 'addOns');
    season.locations.forEach((loc, li) => {
      if (loc.seasonEnd < loc.seasonStart)
        ctx.addIssue({ code: 'custom', path: ['locations', li, 'seasonEnd'], message: 'ends before it starts' });
      // A clock that skips 02:00-03:00 never shows 02:30: the operator must say which instant they mean.
      if (
        loc.salesOpenAt &&
        isLocalDateTime(loc.salesOpenAt) &&
        timezoneOk(loc.timezone) &&
        !salesOpenInstant(loc.salesOpenAt, loc.timezone)
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['locations', li, 'salesOpenAt'],
          message: `${loc.salesOpenAt} does not exist in ${loc.timezone} (clocks skip it for daylight saving)`,
        });
      }
      loc.sessions.forEach((s, si) => {
        if (!typeSlugs.has(s.slotType)) {
          ctx.addIssue({
            code: 'custom',
            path: ['locations', li, 'sessions', si, 'slotType'],
            message: `unknown slot type "${s.slotType}"`,
          });
        }
        // Santa is in one place at a time: windows on a shared weekday must not overlap.
        loc.sessions.slice(0, si).forEach((other, oi) => {
          const sharedDay = s.days.some((d) => other.days.includes(d));
          if (sharedDay && s.hours.from < other.hours.to && other.hours.from < s.hours.to) {
            ctx.addIssue({
              code: 'custom',
              path: ['locations', li, 'sessions', si, 'hours'],
              message: `overlaps sessions[${oi}] on a shared day`,
            });
          }
        });
      });
    });
    season.packages.forEach((p, pi) =>
      p.slotTypes?.forEach((t) => {
        if (!typeSlugs.has(t))
          ctx.addIssue({ code: 'custom', path: ['packages', pi, 'slotTypes'], message: `unknown slot type "${t}"` });
      }),
    );
  });

export type Season = z.output<typeof seasonSchema>;
export type SeasonLocation = Season['locations'][number];

/** One readable line per problem, e.g. `locations.0.timezone: an IANA time zone such as Australia/Sydney`. */
export function describeSeasonErrors(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`);
}
