import type { FastifyInstance } from 'fastify';
import { ApnsPusher, PushCatcher, type PassPusher } from '../modules/wallet/apns';
import { pushChangedPasses } from '../modules/wallet/wallet.service';
import type { Job } from './runner';

/** The embedded default's pushes (no Apple account behind a generated pass set). */
export const devPushCatcher = new PushCatcher();

/** Pushes changed passes to the devices that registered them (decision 0099). */
export function walletPushJob(app: FastifyInstance): Job {
  let pusher: PassPusher | null = null;
  return {
    name: 'wallet-push',
    intervalMs: 5000,
    async run() {
      if (!pusher) {
        const keys = await app.walletKeys.get();
        if (!keys.apple) return;
        pusher = keys.apple.selfSigned ? devPushCatcher : new ApnsPusher(keys.apple);
      }
      await pushChangedPasses(app, pusher, app.log);
    },
  };
}
