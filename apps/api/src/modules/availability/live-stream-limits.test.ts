import { describe, expect, it } from 'vitest';
import { LiveStreamRegistry } from './live-stream-limits';

describe('live streams per address', () => {
  it('count an IPv6 address by its /64, and free the place when a stream ends', () => {
    const registry = new LiveStreamRegistry({ perAccount: 10, perAddress: 2 });
    const release = registry.add('family-a', '2001:db8:1:2::1', () => {});
    registry.add('family-b', '2001:db8:1:2::ffff', () => {});
    // A third address of the same home: its place is full.
    expect(registry.refusal('family-c', '2001:db8:1:2:abcd::9')).toBe('address');
    expect(registry.refusal('family-c', '2001:db8:1:3::1')).toBeNull();
    release();
    expect(registry.refusal('family-c', '2001:db8:1:2:abcd::9')).toBeNull();
  });
});
