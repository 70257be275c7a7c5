import { describe, expect, it } from 'vitest';
import { capitaliseWords, initials, nameParts } from './names';

describe('name helper (spec §3)', () => {
  it('capitalises every word', () => {
    expect(capitaliseWords('  mary  ann ')).toBe('Mary Ann');
    expect(capitaliseWords('SMITH')).toBe('Smith');
    expect(capitaliseWords('')).toBe('');
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
