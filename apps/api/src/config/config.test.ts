import { describe, expect, it } from 'vitest';
import { networkInterfaces } from 'node:os';
import { ConfigError, loadConfig } from './config';
import { isValidAbn, PLACEHOLDER_ABN } from './money-settings';
import { servedOrigins } from './served-origins';

describe('loadConfig', () => {
  it('applies the embedded defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.embedded).toBe(true);
    expect(c.APP_CHECK_MODE).toBe('enforce');
    expect(c.APP_ORIGINS).toEqual(['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']);
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
  it('allows every origin the embedded default answers on, on its port (issue 53)', () => {
    expect(loadConfig({ PORT: '3310', PUBLIC_URL: 'http://localhost:3310' }).APP_ORIGINS).toEqual([
      'http://localhost:3310',
      'http://127.0.0.1:3310',
      'http://[::1]:3310',
    ]);
    // A named HOST is an origin too.
    expect(loadConfig({ HOST: '192.168.1.20' }).APP_ORIGINS).toContain('http://192.168.1.20:3000');
    // HOST=0.0.0.0 (a phone on the Wi-Fi): the machine's own addresses, as os.networkInterfaces() gives them.
    const addresses = Object.values(networkInterfaces()).flatMap((list) =>
      (list ?? []).filter((i) => !i.address.startsWith('fe80')).map((i) => i.address),
    );
    const wide = loadConfig({ HOST: '0.0.0.0' }).APP_ORIGINS;
    for (const address of addresses)
      expect(wide).toContain(new URL(`http://${address.includes(':') ? `[${address}]` : address}:3000`).origin);
  });
  it('lists every address of the interfaces on a wildcard HOST, without link-local IPv6', () => {
    const interfaces = () =>
      ({
        eth0: [
          { address: '192.168.1.20', family: 'IPv4', netmask: '', mac: '', internal: false, cidr: null },
          { address: 'fe80::1', family: 'IPv6', netmask: '', mac: '', internal: false, cidr: null, scopeid: 2 },
          { address: '2001:db8::5', family: 'IPv6', netmask: '', mac: '', internal: false, cidr: null, scopeid: 0 },
        ],
      }) as ReturnType<typeof networkInterfaces>;
    expect(servedOrigins('http://localhost:3000', '0.0.0.0', 3000, interfaces)).toEqual([
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://[::1]:3000',
      'http://192.168.1.20:3000',
      'http://[2001:db8::5]:3000',
    ]);
  });
  it('keeps production to its own list: APP_ORIGINS, or PUBLIC_URL alone with DATABASE_URL', () => {
    expect(
      loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/k', PUBLIC_URL: 'https://book.example.com' }).APP_ORIGINS,
    ).toEqual(['https://book.example.com']);
    expect(loadConfig({ APP_ORIGINS: 'http://localhost:5173' }).APP_ORIGINS).toEqual(['http://localhost:5173']);
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

  it('checks the ABN with the ATO checksum, and defaults to a placeholder that passes it', () => {
    // Two published ABNs (the ATO's own, Telstra's), with and without spaces.
    for (const abn of ['51 824 753 556', '33051775556']) expect(isValidAbn(abn), abn).toBe(true);
    for (const abn of ['12 345 678 901', '51 824 753 557', '00 000 000 000']) expect(isValidAbn(abn), abn).toBe(false);
    expect(isValidAbn(PLACEHOLDER_ABN)).toBe(true);
    expect(loadConfig({}).SELLER_ABN).toBe(PLACEHOLDER_ABN);
    expect(loadConfig({ SELLER_ABN: '51 824 753 556' }).SELLER_ABN).toBe('51 824 753 556');
    expect(() => loadConfig({ SELLER_ABN: '12 345 678 901' })).toThrow(
      /^Invalid configuration: SELLER_ABN: not a valid ABN/,
    );
  });
  describe('with NODE_ENV=production', () => {
    const prod = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://u:p@db:5432/k',
      SMTP_URL: 'smtp://mail.example.com:587',
      SELLER_ABN: '51 824 753 556',
      VOUCHER_CODE_KEY: 'a-production-voucher-code-key-of-32-chars-or-more',
      STRIPE_SECRET_KEY: 'sk_live_x',
    };
    it('starts with real SMTP and an ABN', () => expect(loadConfig(prod).SMTP_URL).toBe(prod.SMTP_URL));
    it('stops without SMTP_URL, with one message naming it (no dev mailbox in production)', () => {
      for (const env of [{ ...prod, SMTP_URL: undefined }, { NODE_ENV: 'production' }, { ...prod, SMTP_URL: '' }]) {
        expect(() => loadConfig(env)).toThrow(ConfigError);
        expect(() => loadConfig(env)).toThrow(/^Invalid configuration: SMTP_URL: required when NODE_ENV=production/);
      }
    });
    it('stops without SELLER_ABN (no placeholder on real tax invoices)', () => {
      expect(() => loadConfig({ ...prod, SELLER_ABN: undefined })).toThrow(
        /^Invalid configuration: SELLER_ABN: required when NODE_ENV=production/,
      );
    });
    it('stops on the embedded database or the Stripe sandbox, naming the variable (issue 36)', () => {
      expect(() => loadConfig({ ...prod, DATABASE_URL: undefined })).toThrow(
        /^Invalid configuration: DATABASE_URL: required when NODE_ENV=production/,
      );
      expect(() => loadConfig({ ...prod, STRIPE_SECRET_KEY: undefined })).toThrow(
        /^Invalid configuration: STRIPE_SECRET_KEY: required when NODE_ENV=production/,
      );
    });
  });
  it(
    'listens on 127.0.0.1 on the embedded default, on every interface with DATABASE_URL, and where HOST says (issue ' +
      '36)',
    () => {
      expect(loadConfig({}).HOST).toBe('127.0.0.1');
      expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
      expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/k' }).HOST).toBe('0.0.0.0');
    },
  );
  it('keeps the embedded default quiet: warnings and errors, no line per request unless asked (issues 37, 41)', () => {
    expect(loadConfig({})).toMatchObject({ LOG_LEVEL: 'warn', LOG_REQUESTS: false });
    expect(loadConfig({ DATABASE_URL: 'postgres://db/kringle' })).toMatchObject({
      LOG_LEVEL: 'info',
      LOG_REQUESTS: true,
    });
    expect(loadConfig({ LOG_REQUESTS: 'true', LOG_LEVEL: 'debug' })).toMatchObject({
      LOG_LEVEL: 'debug',
      LOG_REQUESTS: true,
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://db/kringle', LOG_REQUESTS: '0' }).LOG_REQUESTS).toBe(false);
  });

  it('refuses a data folder under /proc, /sys or /dev at once, naming DATA_DIR (issue 36)', () => {
    for (const dir of ['/proc/kringle', '/proc', '/sys/x', '/dev/k'])
      expect(() => loadConfig({ DATA_DIR: dir })).toThrow(
        /^Invalid configuration: DATA_DIR: .* is on a pseudo file system/,
      );
    expect(loadConfig({ DATA_DIR: '/tmp/proc' }).DATA_DIR).toBe('/tmp/proc');
    expect(loadConfig({ DATA_DIR: '/dev/shm/k' }).DATA_DIR).toBe('/dev/shm/k');
  });
  it('refuses a headers timeout above the request timeout', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '40000' })).toThrow(/^Invalid configuration: HEADERS_TIMEOUT_MS/);
  });
  it('keeps photos under the data folder by default, and names the missing S3 variable for s3', () => {
    expect(loadConfig({}).PHOTO_STORAGE).toBe('local');
    expect(loadConfig({}).PHOTO_RETENTION_DAYS).toBe(60);
    const s3 = {
      PHOTO_STORAGE: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'ap-southeast-2',
      S3_BUCKET: 'photos',
      S3_ACCESS_KEY_ID: 'a',
      S3_SECRET_ACCESS_KEY: 'b',
    };
    expect(loadConfig(s3).S3_BUCKET).toBe('photos');
    expect(() => loadConfig({ ...s3, S3_BUCKET: '' })).toThrow(
      /^Invalid configuration: S3_BUCKET: required when PHOTO_STORAGE=s3/,
    );
    expect(() => loadConfig({ PHOTO_STORAGE: 'ftp' })).toThrow(/^Invalid configuration: PHOTO_STORAGE/);
  });
});
