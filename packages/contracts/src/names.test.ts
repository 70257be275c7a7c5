import { describe, expect, it } from 'vitest';
import { capitaliseWords, greeting, initials, nameParts } from './names';

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
