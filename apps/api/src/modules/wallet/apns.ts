import http2 from 'node:http2';
import type { PassCertificates } from './pass-certificates';

/** Tells a device that one of its passes changed; it then asks the web service what changed. */
export interface PassPusher {
  push(pushToken: string, passTypeId: string): Promise<void>;
}

export interface CaughtPush {
  pushToken: string;
  passTypeId: string;
  at: string;
}

/** The embedded default's catcher (a generated pass set has no Apple account): this process's pushes, newest first. */
export class PushCatcher implements PassPusher {
  readonly caught: CaughtPush[] = [];
  async push(pushToken: string, passTypeId: string): Promise<void> {
    this.caught.unshift({ pushToken, passTypeId, at: new Date().toISOString() });
    this.caught.length = Math.min(this.caught.length, 500);
  }
}

/**
 * Apple's push service for passes: an empty JSON payload over HTTP/2, the topic the pass type id,
 * the client certificate the pass type's own (Apple's "Updating a pass"). A 410 means the device
 * let the pass go; anything else but 200 is an error for the job to retry.
 */
export class ApnsPusher implements PassPusher {
  constructor(
    private readonly certs: PassCertificates,
    private readonly host = 'https://api.push.apple.com',
  ) {}

  push(pushToken: string, passTypeId: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const session = http2.connect(this.host, { cert: this.certs.signerCert, key: this.certs.signerKey });
      session.on('error', reject);
      const req = session.request({ ':method': 'POST', ':path': `/3/device/${pushToken}`, 'apns-topic': passTypeId });
      req.setTimeout(10_000, () => req.close(http2.constants.NGHTTP2_CANCEL));
      req.on('response', (headers) => {
        const status = Number(headers[':status']);
        session.close();
        if (status === 200 || status === 410) resolve();
        else reject(new Error(`APNs answered ${status}`));
      });
      req.on('error', (err) => {
        session.close();
        reject(err);
      });
      req.end('{}');
    });
  }
}
