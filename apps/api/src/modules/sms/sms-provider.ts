import { createHash } from 'node:crypto';
import twilio from 'twilio';
import type { Config } from '../../config/config';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { catchSms } from './sms.repository';

/** Sends one SMS; resolves with the provider's message id. */
export interface SmsProvider {
  send(to: string, body: string): Promise<string>;
}

/** The sender the local catcher shows, and what the family's replies go to. */
export const CATCHER_FROM = 'Kringle';

/** Production: the official Twilio SDK (never reached by the tests: they use the catcher). */
export function twilioProvider(config: Config): SmsProvider {
  const client = twilio(config.TWILIO_ACCOUNT_SID, config.TWILIO_AUTH_TOKEN, { timeout: 15_000 });
  return {
    async send(to, body) {
      const message = await client.messages.create({ to, from: config.SMS_FROM!, body });
      return message.sid;
    },
  };
}

/** The embedded default: messages go into dev_sms, shown at /dev/sms. */
export function catcherProvider(db: Db, clock: Clock, from = CATCHER_FROM): SmsProvider {
  return { send: (to, body) => catchSms(db, to, from, body, clock.now()) };
}

/** twilio, the catcher, or nothing (production without SMS_PROVIDER: SMS stay queued). */
export function smsMode(config: Pick<Config, 'SMS_PROVIDER' | 'NODE_ENV'>): 'twilio' | 'catcher' | null {
  return config.SMS_PROVIDER ?? (config.NODE_ENV === 'production' ? null : 'catcher');
}

/**
 * The key the inbound webhook's X-Twilio-Signature is checked with: Twilio's auth token, or on the
 * catcher one derived from this install's signing key, so /dev/sms's replies are signed the way
 * Twilio signs and go through the same check.
 */
export function webhookAuthToken(config: Config, signingSecret: string): string | null {
  const mode = smsMode(config);
  if (mode === 'twilio') return config.TWILIO_AUTH_TOKEN!;
  if (mode === 'catcher') return createHash('sha256').update(`kringle-sms-catcher:${signingSecret}`).digest('hex');
  return null;
}
