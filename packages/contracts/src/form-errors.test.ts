import { describe, expect, it } from 'vitest';
import { isFormValid } from './form-errors';

describe('isFormValid (spec §5)', () => {
  it('is valid only when every error string is empty', () => {
    expect(isFormValid({})).toBe(true);
    expect(isFormValid({ email: '', password: '' })).toBe(true);
    expect(isFormValid({ email: '', password: undefined, name: null })).toBe(true);
    expect(isFormValid({ email: 'Enter a valid email address', password: '' })).toBe(false);
  });
});
