import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies the embedded defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.embedded).toBe(true);
    expect(c.APP_CHECK_MODE).toBe('enforce');
    expect(c.APP_ORIGINS).toEqual(['http://localhost:3000']);
    expect(c.HOLD_MINUTES).toBe(10);
    expect(c.DATA_DIR).toMatch(/\/\.data$/);
  });
  it('uses DATABASE_URL when set', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/k' });
    expect(c.embedded).toBe(false);
  });
  it('normalises APP_ORIGINS to origins', () => {
    expect(loadConfig({ APP_ORIGINS: 'https://book.example.com/, http://localhost:5173' }).APP_ORIGINS).toEqual([
      'https://book.example.com',
      'http://localhost:5173',
    ]);
  });
  it('treats empty values as unset', () => expect(loadConfig({ PORT: '' }).PORT).toBe(3000));
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['APP_CHECK_MODE', 'sometimes'],
    ['DATABASE_URL', 'not a url'],
    ['STRIPE_SECRET_KEY', 'pk_live_wrong'],
    ['HOLD_MINUTES', '0'],
  ])('stops on a bad %s with one message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name}: `));
  });
});
