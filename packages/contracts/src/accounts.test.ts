import { describe, expect, it } from 'vitest';
import {
  maskEmail,
  newPasswordFormSchema,
  passwordProblem,
  passwordStrength,
  registerFormSchema,
  registerRequestSchema,
  signInRequestSchema,
  updateProfileRequestSchema,
} from './accounts';
import { isCommonPassword } from './common-passwords';

describe('password rules', () => {
  it('accepts 8 to 128 characters that are neither the e-mail nor common', () => {
    expect(passwordProblem('HoHoHo-2026!', 'demo@kringle.test')).toBeNull();
    expect(passwordProblem('a'.repeat(7))).toMatch(/at least 8/);
    expect(passwordProblem('Zq9!'.repeat(33))).toMatch(/at most 128/);
    expect(passwordProblem('Demo@Kringle.test', 'demo@kringle.test')).toMatch(/email/);
    expect(passwordProblem('mary.christmas', 'Mary.Christmas@example.com')).toMatch(/email/);
  });

  it('refuses common passwords, also with digits or ! after them', () => {
    for (const pw of ['password', 'Password123', 'qwertyuiop', 'Christmas2026!', 'iloveyou!!', '123456789']) {
      expect(isCommonPassword(pw)).toBe(true);
    }
    expect(isCommonPassword('Sleigh-Bells-Ring-42')).toBe(false);
    expect(passwordProblem('Santaclaus1', 'a@b.co')).toMatch(/too common/);
  });

  it('scores strength from 0 (refused) to 4', () => {
    expect(passwordStrength('password1')).toBe(0);
    expect(passwordStrength('fjdkslaq')).toBe(1);
    expect(passwordStrength('Fjdks-laq-Wert-9!')).toBe(4);
  });
});

describe('accounts request schemas', () => {
  it('normalises the e-mail and rejects unknown fields', () => {
    const ok = registerRequestSchema.parse({
      email: ' Mary@Example.com ',
      password: 'Sleigh-Bells-Ring-42',
      firstName: ' Mary ',
      lastName: 'C',
    });
    expect(ok.email).toBe('mary@example.com');
    expect(ok.firstName).toBe('Mary');
    expect(signInRequestSchema.safeParse({ email: 'a@b.co', password: 'x', remember: true }).success).toBe(false);
    expect(updateProfileRequestSchema.safeParse({ phone: null, preferredLocationId: null }).success).toBe(true);
    expect(updateProfileRequestSchema.safeParse({ email: 'a@b.co' }).success).toBe(false);
  });

  it('form schemas add the password rules with the message on the password field', () => {
    const form = registerFormSchema.safeParse({
      email: 'mary@example.com',
      password: 'Password123',
      firstName: 'M',
      lastName: 'C',
    });
    expect(form.error?.issues[0]).toMatchObject({ path: ['password'], message: expect.stringMatching(/too common/) });
    expect(newPasswordFormSchema.safeParse({ newPassword: 'qwertyuiop' }).error?.issues[0]?.path).toEqual([
      'newPassword',
    ]);
    expect(newPasswordFormSchema.safeParse({ newPassword: 'Fresh-Snow-On-The-Roof-7' }).success).toBe(true);
  });
});

describe('maskEmail', () => {
  it('keeps the first and last letter of the local part and the domain', () => {
    expect(maskEmail('demo@kringle.test')).toBe('d***o@kringle.test');
    expect(maskEmail('jo@example.com')).toBe('j***@example.com');
    expect(maskEmail('x@example.com')).toBe('x***@example.com');
  });
});
