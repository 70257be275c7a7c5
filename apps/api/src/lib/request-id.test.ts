import { describe, expect, it } from 'vitest';
import { requestIdOf } from './request-id';

describe('requestIdOf', () => {
  it('keeps a proxy id that looks like one', () => {
    expect(requestIdOf({ 'x-request-id': 'proxy-given-id-1234' })).toBe('proxy-given-id-1234');
  });

  it('makes a new id for none, or for one that does not look like an id', () => {
    for (const given of [undefined, 'short', 'has spaces in it', 'x'.repeat(65)]) {
      const id = requestIdOf(given === undefined ? {} : { 'x-request-id': given });
      expect(id).not.toBe(given);
      // The same shape a proxy's id must have, so our ids pass through a chain of our own services.
      expect(id).toMatch(/^[\w-]{8,64}$/);
    }
  });

  it('never issues the same id twice in a process', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => requestIdOf({})));
    expect(ids.size).toBe(10_000);
  });
});
