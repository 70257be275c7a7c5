import type { Env } from './config';
import { ConfigError } from './config';

/**
 * The settings that depend on each other or on NODE_ENV, checked after each has parsed on its own:
 * one message naming the first variable wrong, as every configuration error does.
 */
export function checkSettings(env: Env): void {
  if (env.NODE_ENV === 'production') {
    // Production never falls back to the development stand-ins: the dev mailbox would show
    // everyone's reset links, and invoices would carry the placeholder ABN.
    if (!env.SMTP_URL)
      throw new ConfigError(
        'Invalid configuration: SMTP_URL: required when NODE_ENV=production (the embedded mail catcher and dev ' +
          'mailbox are for development only)',
      );
    if (!env.VOUCHER_CODE_KEY)
      throw new ConfigError(
        'Invalid configuration: VOUCHER_CODE_KEY: required when NODE_ENV=production (gift voucher codes are ' +
          'derived from it; the development key is public)',
      );
    if (!env.SELLER_ABN)
      throw new ConfigError(
        "Invalid configuration: SELLER_ABN: required when NODE_ENV=production (the seller's ABN printed on tax " +
          'invoices)',
      );
    // Nor on the embedded database (demo accounts with the README's password) or the Stripe sandbox (no real payment).
    if (!env.DATABASE_URL)
      throw new ConfigError(
        'Invalid configuration: DATABASE_URL: required when NODE_ENV=production (the embedded PostgreSQL and its ' +
          'demo accounts are for development only)',
      );
    if (!env.STRIPE_SECRET_KEY)
      throw new ConfigError(
        'Invalid configuration: STRIPE_SECRET_KEY: required when NODE_ENV=production (the local Stripe sandbox takes ' +
          'no real payment)',
      );
  }
  if (env.MIGRATION_DATABASE_URL && !env.DATABASE_URL)
    throw new ConfigError(
      'Invalid configuration: MIGRATION_DATABASE_URL: needs DATABASE_URL (the runtime role the API runs as)',
    );
  if (env.SMS_PROVIDER === 'twilio') {
    for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'SMS_FROM'] as const) {
      if (!env[name]) throw new ConfigError(`Invalid configuration: ${name}: required when SMS_PROVIDER=twilio`);
    }
  }
  if (env.NODE_ENV === 'production' && env.SMS_PROVIDER === 'catcher')
    throw new ConfigError('Invalid configuration: SMS_PROVIDER: the local catcher is for development only');
  const appleSet = [
    'APPLE_PASS_CERT',
    'APPLE_PASS_KEY',
    'APPLE_PASS_TYPE_ID',
    'APPLE_TEAM_ID',
    'APPLE_WWDR_CERT',
  ] as const;
  if (appleSet.some((n) => env[n])) {
    for (const name of appleSet) {
      if (!env[name])
        throw new ConfigError(`Invalid configuration: ${name}: required with the other APPLE_ pass settings`);
    }
  }
  if (!env.GOOGLE_WALLET_ISSUER_ID !== !env.GOOGLE_WALLET_SERVICE_ACCOUNT)
    throw new ConfigError(
      `Invalid configuration: ` +
        `${env.GOOGLE_WALLET_ISSUER_ID ? 'GOOGLE_WALLET_SERVICE_ACCOUNT' : 'GOOGLE_WALLET_ISSUER_ID'}: ` +
        'both Google Wallet settings or neither',
    );
  if (env.PHOTO_STORAGE === 's3') {
    // One message naming the first missing variable, like every other configuration error.
    for (const name of ['S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!env[name]) throw new ConfigError(`Invalid configuration: ${name}: required when PHOTO_STORAGE=s3`);
    }
  }
}
