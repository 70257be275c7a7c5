import { describe, expect, it } from 'vitest';
import { requestIdOf, traceShapedIdOf } from './request-id';

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

describe('traceShapedIdOf', () => {
  it("is an incoming traceparent's trace id", () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect(traceShapedIdOf({ traceparent })).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('is a new trace-id-shaped id for none, or for a traceparent that is not valid', () => {
    for (const traceparent of [
      undefined,
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01',
      'garbage',
    ]) {
      const id = traceShapedIdOf(traceparent === undefined ? {} : { traceparent });
      expect(id).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
      expect(traceparent ?? '').not.toContain(id);
    }
  });

  it('never issues the same id twice in a process', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => traceShapedIdOf({})));
    expect(ids.size).toBe(10_000);
  });
});
