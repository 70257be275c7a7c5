import type { FastifyInstance } from 'fastify';
import { catcherProvider, smsMode, twilioProvider } from '../modules/sms/sms-provider';
import { deliverDueSms } from '../modules/sms/sms-outbox.service';
import type { Job } from './runner';

/** Sends the SMS outbox (decision 0100); null in production without SMS_PROVIDER (SMS stay queued). */
export function createSmsOutboxJob(app: FastifyInstance): Job | null {
  const mode = smsMode(app.config);
  if (!mode) return null;
  const provider = mode === 'twilio' ? twilioProvider(app.config) : catcherProvider(app.db, app.clock);
  return {
    name: 'sms-outbox',
    intervalMs: 1000,
    run: async () => void (await deliverDueSms({ db: app.db, clock: app.clock, provider, log: app.log })),
  };
}
