import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config';
import { holdAddressLimit, holdAddressOf } from './hold-address';

describe('the place a hold is taken from (decision 0069)', () => {
  it('is stored as a keyed hash, the same for one place, and not at all when no cap is in force', () => {
    const secrets = { jwtPrivateKeyPem: '', appCheckSecret: 'a-secret-of-at-least-32-characters!!' };
    const on = { config: loadConfig({ NODE_ENV: 'test', RATE_LIMIT_MODE: 'on' }), secrets };
    const key = holdAddressOf(on, '2001:db8:0:36::1');
    expect(key).toMatch(/^[\w-]{22}$/);
    expect(key).not.toContain('2001');
    expect(holdAddressOf(on, '2001:db8:0:36::2')).toBe(key);
    expect(holdAddressOf(on, '2001:db8:0:37::1')).not.toBe(key);
    expect(
      holdAddressOf(
        { ...on, secrets: { ...secrets, appCheckSecret: 'another-secret-of-at-least-32-chars!' } },
        '2001:db8:0:36::1',
      ),
    ).not.toBe(key);
    expect(holdAddressLimit(on)).toBe(10);
    expect(
      holdAddressOf({ config: loadConfig({ NODE_ENV: 'test', RATE_LIMIT_MODE: 'off' }), secrets }, '203.0.113.7'),
    ).toBeNull();
    expect(
      holdAddressOf({ config: loadConfig({ NODE_ENV: 'test', HOLD_ADDRESS_LIMIT: '0' }), secrets }, '203.0.113.7'),
    ).toBeNull();
  });
});
