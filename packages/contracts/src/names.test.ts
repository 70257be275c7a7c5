import { describe, expect, it } from 'vitest';
import { registerRequestSchema, updateProfileRequestSchema } from './accounts';
import { childSchema } from './booking-details';
import {
  capitaliseWords,
  greeting,
  hasHiddenCharacters,
  HIDDEN_CHARACTERS_MESSAGE,
  initials,
  nameParts,
} from './names';
import { walkInBodySchema } from './staff';

describe('name helper (spec §3)', () => {
  it('capitalises every word', () => {
    expect(capitaliseWords('  mary  ann ')).toBe('Mary Ann');
    expect(capitaliseWords('')).toBe('');
  });
  it('keeps the rest of each word as typed', () => {
    expect(capitaliseWords('McBerry-Smith')).toBe('McBerry-Smith');
    expect(capitaliseWords("O'Brien")).toBe("O'Brien");
    expect(capitaliseWords('SMITH')).toBe('SMITH');
    expect(capitaliseWords('mary-jane van der Berg')).toBe('Mary-Jane Van Der Berg');
  });
  it('capitalises after an apostrophe, as names typed in lower case need', () => {
    expect(capitaliseWords("jack o'brien")).toBe("Jack O'Brien");
    expect(capitaliseWords('d’arcy')).toBe('D’Arcy');
  });
  it('greets by the first name as typed', () => {
    expect(greeting('holly')).toBe('Hi Holly,');
    expect(greeting(' McKenzie ')).toBe('Hi McKenzie,');
    expect(greeting('')).toBe('Hi,');
  });
  it('builds first, last and full names', () => {
    expect(nameParts('holly', 'mc ivy')).toEqual({ firstname: 'Holly', lastname: 'Mc Ivy', fullname: 'Holly Mc Ivy' });
    expect(nameParts('holly', '')).toEqual({ firstname: 'Holly', lastname: '', fullname: 'Holly' });
    expect(nameParts(null, undefined)).toEqual({ firstname: '', lastname: '', fullname: '' });
  });
  it('makes avatar initials', () => {
    expect(initials('Holly Mc Ivy')).toBe('HI');
    expect(initials('Holly')).toBe('H');
    expect(initials('', 'demo@kringle.test')).toBe('D');
    expect(initials('')).toBe('?');
  });
});

describe('names refuse characters that hide or reorder text (issue 48 item 10)', () => {
  const hidden = {
    'right-to-left override': 'Mary\u202eyraM',
    'left-to-right embedding': '\u202aMary',
    'first-strong isolate': 'Mary\u2068 Smith\u2069',
    'right-to-left mark': 'Mary\u200f',
    'arabic letter mark': 'Mary\u061c',
    'zero-width space': 'Ma\u200bry',
    'word joiner': 'Ma\u2060ry',
    'byte-order mark': 'Ma\ufeffry',
    'soft hyphen': 'Ma\u00adry',
    'line separator': 'Mary\u2028Smith',
    'paragraph separator': 'Mary\u2029Smith',
    'line feed': 'Mary\nSmith',
    tab: 'Mary\tSmith',
    'hangul filler': '\u3164',
    'tag character': 'Mary\u{e0041}',
    'zero-width joiner at the start': '\u200dMary',
    'zero-width non-joiner before a space': 'Mary\u200c Smith',
  };
  for (const [what, value] of Object.entries(hidden)) {
    it(`refuses a ${what}`, () => {
      expect(hasHiddenCharacters(value)).toBe(true);
      for (const schema of [
        registerRequestSchema.shape.firstName,
        updateProfileRequestSchema.shape.lastName.unwrap(),
        walkInBodySchema.shape.firstName,
        childSchema.shape.firstName,
      ]) {
        const parsed = schema.safeParse(value);
        expect(parsed.success, what).toBe(false);
        expect(parsed.error?.issues.map((i) => i.message)).toContain(HIDDEN_CHARACTERS_MESSAGE);
      }
    });
  }
  it('keeps names as people write them', () => {
    for (const name of [
      "O'Brien",
      'Mary-Jane van der Berg',
      'D’Arcy',
      'Zoë',
      'José',
      '李小龍',
      'محمد',
      'Nguyễn',
      'Ngāti',
      'सत्\u200dय',
      'می\u200cخواهم',
    ]) {
      expect(hasHiddenCharacters(name), name).toBe(false);
      expect(registerRequestSchema.shape.firstName.safeParse(name).success, name).toBe(true);
      expect(walkInBodySchema.shape.lastName.safeParse(name).success, name).toBe(true);
    }
  });
});
