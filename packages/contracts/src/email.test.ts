import { describe, expect, it } from 'vitest';
import { isValidEmail, normaliseEmail } from './email';

describe('isValidEmail (spec §5)', () => {
  it.each([
    'a@b.co',
    'first.last@example.com.au',
    'x+tag@sub.domain.org',
    '"odd local"@example.com',
    'a@[192.168.0.1]',
  ])('accepts %s', (email) => expect(isValidEmail(email)).toBe(true));
  it.each(['', 'plain', 'a@b', 'a@b.c', 'a@b.c1', 'a b@c.com', 'a@@b.com', '.a@b.com', 'a.@b.com', 'a@[1.2.3]'])(
    'rejects %j',
    (email) => expect(isValidEmail(email)).toBe(false),
  );
  it('treats null and undefined as empty', () => {
    expect(isValidEmail(null)).toBe(false);
    expect(isValidEmail(undefined)).toBe(false);
  });
  it('normalises case and spaces', () => expect(normaliseEmail('  Demo@Kringle.TEST ')).toBe('demo@kringle.test'));
});
