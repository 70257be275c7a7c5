import { describe, expect, it } from 'vitest';
import { businessBuyerSchema, formatAbn, isValidAbn } from './abn';

describe('ABN checksum', () => {
  it('accepts real ABNs, spaced or not', () => {
    // The ATO's own ABN and the ABR's worked example.
    expect(isValidAbn('51 824 753 556')).toBe(true);
    expect(isValidAbn('53004085616')).toBe(true);
  });

  it('refuses a changed digit, a wrong length, letters and a leading zero', () => {
    expect(isValidAbn('51 824 753 557')).toBe(false);
    expect(isValidAbn('5182475355')).toBe(false);
    expect(isValidAbn('5182475355a')).toBe(false);
    expect(isValidAbn('01824753556')).toBe(false);
  });

  it('the schema stores the 11 digits and says what is wrong', () => {
    expect(businessBuyerSchema.parse({ name: ' Bondi Public School ', abn: '51 824 753 556' })).toEqual({
      name: 'Bondi Public School',
      abn: '51824753556',
    });
    const bad = businessBuyerSchema.safeParse({ name: 'Acme', abn: '51 824 753 557' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('That ABN is not valid: check its digits.');
    expect(formatAbn('51824753556')).toBe('51 824 753 556');
  });
});
