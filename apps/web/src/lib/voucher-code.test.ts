import { describe, expect, it } from 'vitest';
import { VOUCHER_CODE_SHAPE, voucherCodeFromHash, voucherCodeOf, voucherCodeProblem } from './voucher-code';

describe('voucher codes as typed', () => {
  it('takes any case, spaces and hyphens, and shows the code XXXX-XXXX-XXXX', () => {
    expect(voucherCodeOf('abcd efgh jkmn')).toBe('ABCD-EFGH-JKMN');
    expect(voucherCodeOf(' ABCD-EFGH-JKMN ')).toBe('ABCD-EFGH-JKMN');
    expect(voucherCodeOf('abcdefghjkmn')).toBe('ABCD-EFGH-JKMN');
    expect(voucherCodeProblem('abcd-efgh-jkmn')).toBe('');
  });

  it('says what cannot be a code before it is sent (a wrong code counts towards the limit)', () => {
    expect(voucherCodeProblem('  ')).toBe('Enter the voucher code.');
    expect(voucherCodeProblem('ABCD-EFGH')).toBe(VOUCHER_CODE_SHAPE);
    // 0, O, 1 and I are not in the alphabet: a look-alike stays wrong rather than guessed.
    expect(voucherCodeOf('ABCD-EFGH-JKM0')).toBeNull();
    expect(voucherCodeOf('ABCD-EFGH-JKMO')).toBeNull();
    expect(voucherCodeOf('ABCD-EFGH-JKMN-P')).toBeNull();
  });

  it("reads the certificate's and the e-mail's link fragment", () => {
    expect(voucherCodeFromHash('#ABCD-EFGH-JKMN')).toBe('ABCD-EFGH-JKMN');
    expect(voucherCodeFromHash('#ABCD%20EFGH%20JKMN')).toBe('ABCD EFGH JKMN');
    expect(voucherCodeFromHash('#%E0%A4%A')).toBe('%E0%A4%A');
    expect(voucherCodeFromHash('')).toBe('');
  });
});
