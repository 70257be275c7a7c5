import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config';
import { addressPlace, holdAddressLimit, holdAddressOf } from './hold-address';

describe('the place a hold is taken from (decision 0069)', () => {
  it('is an IPv4 address itself, mapped or not', () => {
    expect(addressPlace('203.0.113.7')).toBe('203.0.113.7');
    expect(addressPlace('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it("is an IPv6 address's /64, however it is written", () => {
    const place = '2001:db8:0:36::/64';
    for (const ip of ['2001:db8:0:36::1', '2001:0DB8:0000:0036:ffff:ffff:ffff:ffff', '2001:db8::36:1:2:3:4', '2001:db8:0:36:a::b%eth0']) {
      expect(addressPlace(ip), ip).toBe(place);
    }
    expect(addressPlace('2001:db8:0:37::1')).not.toBe(place);
    expect(addressPlace('::1')).toBe('0:0:0:0::/64');
    expect(addressPlace('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64');
  });

  it('is stored as a keyed hash, the same for one place, and not at all when no cap is in force', () => {
    const secrets = { jwtPrivateKeyPem: '', appCheckSecret: 'a-secret-of-at-least-32-characters!!' };
    const on = { config: loadConfig({ NODE_ENV: 'test', RATE_LIMIT_MODE: 'on' }), secrets };
    const key = holdAddressOf(on, '2001:db8:0:36::1');
    expect(key).toMatch(/^[\w-]{22}$/);
    expect(key).not.toContain('2001');
    expect(holdAddressOf(on, '2001:db8:0:36::2')).toBe(key);
    expect(holdAddressOf(on, '2001:db8:0:37::1')).not.toBe(key);
    expect(holdAddressOf({ ...on, secrets: { ...secrets, appCheckSecret: 'another-secret-of-at-least-32-chars!' } }, '2001:db8:0:36::1')).not.toBe(key);
    expect(holdAddressLimit(on)).toBe(10);
    expect(holdAddressOf({ config: loadConfig({ NODE_ENV: 'test', RATE_LIMIT_MODE: 'off' }), secrets }, '203.0.113.7')).toBeNull();
    expect(holdAddressOf({ config: loadConfig({ NODE_ENV: 'test', HOLD_ADDRESS_LIMIT: '0' }), secrets }, '203.0.113.7')).toBeNull();
  });
});
