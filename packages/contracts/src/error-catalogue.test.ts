import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from './error-catalogue';
import { ERROR_CODES } from './errors';

describe('error catalogue', () => {
  it.each(ERROR_CODES)('%s has an error status and a text to read', (code) => {
    const entry = ERROR_CATALOGUE[code];
    expect(entry.status).toBeGreaterThanOrEqual(400);
    expect(entry.status).toBeLessThan(600);
    expect(entry.text.trim()).not.toBe('');
  });

  it('lists no code the API does not know', () => {
    expect(Object.keys(ERROR_CATALOGUE).sort()).toEqual([...ERROR_CODES].sort());
  });
});
