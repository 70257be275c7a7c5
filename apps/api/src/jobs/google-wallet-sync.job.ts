import type { FastifyInstance } from 'fastify';
import { GoogleUpdateCatcher, GoogleWalletApi, type GoogleObjectUpdater } from '../modules/wallet/google-wallet-api';
import { syncGoogleObjects } from '../modules/wallet/wallet.service';
import type { Job } from './runner';

/** The embedded default's Google updates (a generated key has no Google account to send them to). */
export const devGoogleCatcher = new GoogleUpdateCatcher();

/** Sends changed bookings' Google Wallet objects (issue 54), as wallet-push.job.ts tells Apple devices. */
export function googleWalletSyncJob(app: FastifyInstance): Job {
  let updater: GoogleObjectUpdater | null = null;
  return {
    name: 'google-wallet-sync',
    intervalMs: 5000,
    async run() {
      if (!updater) {
        const keys = await app.walletKeys.get();
        if (!keys.google) return;
        updater = app.config.GOOGLE_WALLET_SERVICE_ACCOUNT ? new GoogleWalletApi(keys.google) : devGoogleCatcher;
      }
      await syncGoogleObjects(app, updater, app.log);
    },
  };
}
