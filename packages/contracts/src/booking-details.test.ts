import { describe, expect, it } from 'vitest';
import { bookingDetailsSchemaFor, detailsSummary, type BookingDetails } from './booking-details';

const base: BookingDetails = {
  children: [{ firstName: 'Mia', age: 6 }],
  adults: 1,
  pets: 0,
  accessNeeds: [],
  accessNote: '',
  noteForSanta: '',
};
const rules = { maxPeople: 8, allowsPets: false };
const check = (d: unknown, r = rules) => bookingDetailsSchemaFor(r).safeParse(d);
const errorAt = (d: unknown, path: string, r = rules) => {
  const res = check(d, r);
  expect(res.success, JSON.stringify(d)).toBe(false);
  const issue = res.error!.issues.find((i) => i.path.join('.') === path);
  expect(issue, `${path} in ${JSON.stringify(res.error!.issues)}`).toBeDefined();
  return issue!.message;
};
const kids = (n: number, age = 5) => Array.from({ length: n }, (_, i) => ({ firstName: `Kid${i}`, age }));

describe('bookingDetailsSchemaFor', () => {
  it('accepts the limits themselves and trims names', () => {
    expect(check({ ...base, children: kids(8), adults: 0 }).success).toBe(true);
    expect(check({ ...base, children: [], adults: 8 }).success).toBe(true);
    expect(
      check({
        ...base,
        children: [
          { firstName: 'x'.repeat(40), age: 0 },
          { firstName: 'y', age: 17 },
        ],
      }).success,
    ).toBe(true);
    expect(check({ ...base, pets: 3 }, { maxPeople: 8, allowsPets: true }).success).toBe(true);
    expect(
      check({
        ...base,
        accessNeeds: ['wheelchair', 'sensory', 'auslan'],
        accessNote: 'a'.repeat(200),
        noteForSanta: 'b'.repeat(200),
      }).success,
    ).toBe(true);
    expect(check({ ...base, children: [{ firstName: '  Mia  ', age: 6 }] }).data?.children[0]?.firstName).toBe('Mia');
  });

  it('refuses each limit with a readable message at its field', () => {
    expect(errorAt({ ...base, children: kids(9), adults: 0 }, 'children')).toBe('At most 8 children.');
    expect(errorAt({ ...base, children: [{ firstName: ' ', age: 5 }] }, 'children.0.firstName')).toBe(
      "Enter the child's first name.",
    );
    expect(errorAt({ ...base, children: [{ firstName: 'x'.repeat(41), age: 5 }] }, 'children.0.firstName')).toMatch(
      /at most 40 characters/,
    );
    expect(errorAt({ ...base, children: [{ firstName: 'Mia', age: 18 }] }, 'children.0.age')).toMatch(/17 or younger/);
    expect(errorAt({ ...base, children: [{ firstName: 'Mia', age: -1 }] }, 'children.0.age')).toMatch(/0 to 17/);
    expect(errorAt({ ...base, children: [{ firstName: 'Mia', age: 1.5 }] }, 'children.0.age')).toMatch(/whole years/);
    expect(errorAt({ ...base, children: [{ firstName: 'Mia', age: Number.NaN }] }, 'children.0.age')).toMatch(
      /0 to 17/,
    );
    expect(errorAt({ ...base, adults: 9 }, 'adults')).toBe('At most 8 adults.');
    expect(errorAt({ ...base, adults: -1 }, 'adults')).toMatch(/cannot be negative/);
    expect(errorAt({ ...base, pets: 4 }, 'pets', { maxPeople: 8, allowsPets: true })).toBe('At most 3 pets.');
    expect(errorAt({ ...base, pets: 1 }, 'pets')).toBe('Pets come to pet nights only.');
    expect(errorAt({ ...base, accessNeeds: ['ramp'] }, 'accessNeeds.0')).toMatch(
      /wheelchair access, sensory-friendly or Auslan/,
    );
    expect(errorAt({ ...base, accessNeeds: ['sensory', 'sensory'] }, 'accessNeeds')).toBe(
      'Each access need once only.',
    );
    expect(errorAt({ ...base, accessNote: 'x'.repeat(201) }, 'accessNote')).toMatch(/at most 200/);
    expect(errorAt({ ...base, noteForSanta: 'x'.repeat(201) }, 'noteForSanta')).toMatch(/at most 200/);
    expect(errorAt({ ...base, children: [], adults: 0 }, 'adults')).toMatch(/at least one/);
    expect(errorAt({ ...base, children: kids(5), adults: 4 }, 'adults')).toMatch(/At most 8 people/);
    expect(check({ ...base, surname: 'Claus' }).success).toBe(false);
  });

  it('follows the configured people limit', () => {
    expect(errorAt({ ...base, children: kids(2), adults: 2 }, 'adults', { maxPeople: 3, allowsPets: false })).toBe(
      'At most 3 people fit in the photo (children and adults together).',
    );
    expect(check({ ...base, children: kids(2), adults: 1 }, { maxPeople: 3, allowsPets: false }).success).toBe(true);
  });
});

describe('detailsSummary', () => {
  it('lists first names with ages, adults and pets', () => {
    expect(
      detailsSummary({
        ...base,
        children: [
          { firstName: 'Mia', age: 6 },
          { firstName: 'Leo', age: 3 },
          { firstName: 'Ada', age: 1 },
        ],
        adults: 2,
        pets: 1,
      }),
    ).toBe('Mia (6), Leo (3) and Ada (1), 2 adults, 1 pet');
    expect(detailsSummary({ ...base, children: [], adults: 1 })).toBe('1 adult');
  });
});

describe('hidden characters in who is coming (issue 36)', () => {
  it('refuses control and bidi characters in names and notes, and keeps line breaks in notes as LF', () => {
    expect(errorAt({ ...base, children: [{ firstName: 'Mia\u202Egnp.exe', age: 6 }] }, 'children.0.firstName')).toBe(
      'Remove the hidden or control characters.',
    );
    expect(errorAt({ ...base, children: [{ firstName: 'Mia\rX', age: 6 }] }, 'children.0.firstName')).toMatch(
      /hidden or control/,
    );
    expect(errorAt({ ...base, noteForSanta: 'hi\u0007' }, 'noteForSanta')).toMatch(/hidden or control/);
    expect(errorAt({ ...base, accessNote: 'ramp\u2066please' }, 'accessNote')).toMatch(/hidden or control/);
    const parsed = check({ ...base, noteForSanta: 'Line one\r\nLine two\rthree' });
    expect(parsed.success).toBe(true);
    expect(parsed.data!.noteForSanta).toBe('Line one\nLine two\nthree');
  });
});
