import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex, solveSha256 } from './sha256';

const reference = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('sha256Hex', () => {
  it('matches the standard digest for empty, short, block-edge, long and non-ASCII input', () => {
    for (const input of [
      '',
      'abc',
      'a'.repeat(55),
      'a'.repeat(56),
      'a'.repeat(64),
      'x'.repeat(1000),
      'salt?expires=1765000000&12345',
      'Père Noël 🎅',
    ]) {
      expect(sha256Hex(input)).toBe(reference(input));
    }
  });

  it('solves an ALTCHA-style challenge', () => {
    const salt = 'a1b2c3d4e5f6?expires=1765000000&';
    expect(solveSha256(reference(`${salt}31337`), salt, 50_000)).toBe(31337);
    expect(solveSha256(reference(`${salt}9`), salt, 5)).toBeNull();
  });
});

describe('solveSha256 edge cases', () => {
  it('handles salts that push the message into a second block and multi-digit growth', () => {
    for (const salt of ['', 'x'.repeat(50), 'y'.repeat(54), 'z'.repeat(120)]) {
      for (const n of [0, 9, 10, 99, 100, 1234]) expect(solveSha256(reference(`${salt}${n}`), salt, 2000)).toBe(n);
    }
  });
});
