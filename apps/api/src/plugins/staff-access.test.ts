import { describe, expect, it, vi } from 'vitest';
import { rolesOf, staffCovers, StaffStateCache } from './staff-access';

describe('staff access', () => {
  it('lets manager call every staff route, and a route naming no roles is manager-only', () => {
    expect(rolesOf(undefined)).toEqual(['manager']);
    expect(rolesOf([])).toEqual(['manager']);
    expect(rolesOf(['set'])).toEqual(['manager', 'set']);
    expect(rolesOf(['support', 'set'])).toEqual(['manager', 'support', 'set']);
  });

  it('covers every location with an empty list, else only those listed', () => {
    expect(staffCovers({ locationIds: [] }, 'a')).toBe(true);
    expect(staffCovers({ locationIds: ['a'] }, 'a')).toBe(true);
    expect(staffCovers({ locationIds: ['a'] }, 'b')).toBe(false);
  });

  it('reads an account at most once per TTL, again after it, and at once after forget', async () => {
    const load = vi.fn(async (id: string) => ({
      userId: id,
      email: 'e',
      role: 'set' as const,
      locationIds: [],
      active: true,
      mfaEnrolled: false,
    }));
    const cache = new StaffStateCache(load, 5000);
    await cache.get('u', 1000);
    await cache.get('u', 5999);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get('u', 6000);
    expect(load).toHaveBeenCalledTimes(2);
    cache.forget('u');
    await cache.get('u', 6001);
    expect(load).toHaveBeenCalledTimes(3);
    // A clock that went backwards (a test's manual clock) never serves a stale entry.
    await cache.get('u', 10);
    expect(load).toHaveBeenCalledTimes(4);
  });
});
