import { describe, expect, it } from 'vitest';
import { addressPlace } from './address-place';

describe('the place a client is counted as', () => {
  it('is an IPv4 address itself, mapped or not', () => {
    expect(addressPlace('203.0.113.7')).toBe('203.0.113.7');
    expect(addressPlace('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it("is an IPv6 address's /64, however it is written", () => {
    const place = '2001:db8:0:36::/64';
    for (const ip of [
      '2001:db8:0:36::1',
      '2001:0DB8:0000:0036:ffff:ffff:ffff:ffff',
      '2001:db8::36:1:2:3:4',
      '2001:db8:0:36:a::b%eth0',
    ]) {
      expect(addressPlace(ip), ip).toBe(place);
    }
    expect(addressPlace('2001:db8:0:37::1')).not.toBe(place);
    expect(addressPlace('::1')).toBe('0:0:0:0::/64');
    expect(addressPlace('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64');
  });
});
