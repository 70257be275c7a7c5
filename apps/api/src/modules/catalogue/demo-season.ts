import { addDays, localDateOf } from '@kringle/contracts/dates';
import type { z } from 'zod';
import type { seasonSchema } from '@kringle/contracts/season';

type SeasonInput = z.input<typeof seasonSchema>;

const EVERY_DAY_BUT_THURSDAY = ['mon', 'tue', 'wed', 'fri', 'sat', 'sun'] as const;

/** Santa's season ends on Christmas Eve. */
const LAST_DAY = '12-24';
/** Next year's season opens with the centres' Christmas trading. */
const FIRST_DAY = '11-01';

/**
 * The demo season's dates in Sydney's calendar: from today to 24 December; after Christmas Eve,
 * next year's season (1 November to 24 December). `days` replaces that with a fixed length from
 * today, for tests that need days far ahead whatever the date they run on.
 */
export function demoSeasonDates(today: Date, days?: number): { seasonStart: string; seasonEnd: string } {
  const local = localDateOf(today, 'Australia/Sydney');
  if (days !== undefined) return { seasonStart: local, seasonEnd: addDays(local, days - 1) };
  const year = Number(local.slice(0, 4));
  const thisEnd = `${year}-${LAST_DAY}`;
  if (local <= thisEnd) return { seasonStart: local, seasonEnd: thisEnd };
  return { seasonStart: `${year + 1}-${FIRST_DAY}`, seasonEnd: `${year + 1}-${LAST_DAY}` };
}

/**
 * The embedded default's season: today to Christmas Eve (see demoSeasonDates) at three centres
 * in zones with and without daylight saving, closed on Christmas Day. The same shape as
 * docs/season.example.json.
 */
export function demoSeason(today: Date = new Date(), options: { days?: number } = {}): SeasonInput {
  const { seasonStart, seasonEnd } = demoSeasonDates(today, options.days);
  // Kept although the season now ends on the 24th: a `days` season may run past Christmas.
  const closedDates = [...new Set([`${seasonStart.slice(0, 4)}-12-25`, `${seasonEnd.slice(0, 4)}-12-25`])];
  const sessions = [
    { slotType: 'sensory', days: ['sun', 'wed'], hours: '08:30-10:00' },
    { slotType: 'standard', days: [...EVERY_DAY_BUT_THURSDAY], hours: '10:00-17:30' },
    { slotType: 'standard', days: ['thu'], hours: '10:00-20:30' },
    { slotType: 'pet-night', days: ['mon'], hours: '18:30-20:30' },
  ] as SeasonInput['locations'][number]['sessions'];
  const breaks = ['12:00-12:40', '15:00-15:20', '18:00-18:30'];
  const common = { seasonStart, seasonEnd, sessions, breaks, closedDates };
  return {
    // One more digital photo in the gallery, beyond what the packages include (issue 39).
    extraPhotoPriceCents: 900,
    slotTypes: [
      {
        slug: 'standard',
        name: 'Santa photos',
        description: 'A classic visit: meet Santa, share a wish and take home your photos. About 10 minutes.',
        durationMinutes: 10,
      },
      {
        slug: 'sensory',
        name: 'Sensory-friendly Santa',
        description:
          'Before the centre opens: dimmed lights, no music, no queue and a patient Santa. For children with autism, ' +
          'sensory ' +
          'processing differences or anyone who finds crowds hard. 20 minutes, so nobody is rushed.',
        durationMinutes: 20,
      },
      {
        slug: 'pet-night',
        name: 'Pet night',
        description:
          'Bring the dog (or the cat, if it agrees). Pets on a lead or in a carrier, one family at a time. 15 minutes.',
        durationMinutes: 15,
        allowsPets: true,
      },
    ],
    locations: [
      {
        slug: 'sydney-pitt-street',
        name: 'Kringle Sydney, Pitt Street',
        address: 'Level 1, 188 Pitt Street Mall',
        suburb: 'Sydney',
        state: 'NSW',
        timezone: 'Australia/Sydney',
        ...common,
      },
      {
        slug: 'brisbane-queen-street',
        name: 'Kringle Brisbane, Queen Street',
        address: 'Ground floor, 171 Queen Street Mall',
        suburb: 'Brisbane City',
        state: 'QLD',
        timezone: 'Australia/Brisbane',
        ...common,
      },
      {
        slug: 'perth-murray-street',
        name: 'Kringle Perth, Murray Street',
        address: 'Level 2, 200 Murray Street Mall',
        suburb: 'Perth',
        state: 'WA',
        timezone: 'Australia/Perth',
        ...common,
      },
    ],
    packages: [
      {
        slug: 'digital-memories',
        name: 'Digital Memories',
        description: 'Your three favourite shots, ready to share the same day.',
        includes: ['3 digital images', 'Online gallery for 30 days'],
        priceCents: 2995,
        digitalPhotos: 3,
      },
      {
        slug: 'classic-print',
        name: 'Classic Print',
        description: 'One printed photo in a Christmas folder, plus digital copies.',
        includes: ['1 printed 8x6" photo in a folder', '2 digital images'],
        priceCents: 3995,
        digitalPhotos: 2,
      },
      {
        slug: 'family-keepsake',
        name: 'Family Keepsake',
        description: 'Prints for the grandparents and every image from your visit.',
        includes: ['2 printed 8x6" photos', 'All digital images', 'Timber easel frame'],
        priceCents: 5995,
        digitalPhotos: 'all',
      },
      {
        slug: 'deluxe-sleigh',
        name: 'Deluxe Sleigh',
        description: 'Everything, including a short video of the moment with Santa.',
        includes: ['3 printed photos (one 10x8")', 'All digital images', 'Photo ornament', '30-second video clip'],
        priceCents: 8995,
        digitalPhotos: 'all',
      },
      {
        slug: 'pawsome-pet-pack',
        name: 'Pawsome Pet Pack',
        description: 'Made for pet night: your pet and Santa, framed.',
        includes: ['1 printed 8x6" photo', '2 digital images', 'Paw-print frame'],
        priceCents: 3495,
        digitalPhotos: 2,
        slotTypes: ['pet-night'],
      },
    ],
    addOns: [
      {
        slug: 'extra-print',
        name: 'Extra 8x6" print',
        description: 'Another print of any photo from your visit.',
        priceCents: 1295,
      },
      {
        slug: 'photo-ornament',
        name: 'Photo ornament',
        description: 'A ceramic tree ornament with your favourite photo.',
        priceCents: 1995,
      },
      {
        slug: 'video-clip',
        name: 'Video clip',
        description: 'A 30-second video of your visit, to download.',
        priceCents: 1495,
      },
      {
        slug: 'greeting-cards',
        name: 'Greeting cards (10)',
        description: 'Ten folded cards with your photo and envelopes.',
        priceCents: 2495,
      },
      {
        slug: 'timber-frame',
        name: 'Timber frame',
        description: 'A natural timber frame for an 8x6" print.',
        priceCents: 2295,
      },
    ],
  };
}
