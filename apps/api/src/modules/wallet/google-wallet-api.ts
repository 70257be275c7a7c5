import { importPKCS8, SignJWT } from 'jose';
import type { GoogleWalletKey } from './wallet-keys';

/** Sends a changed booking's event ticket object to Google Wallet; 'absent' when nobody saved it there. */
export interface GoogleObjectUpdater {
  update(objectId: string, object: object): Promise<'updated' | 'absent'>;
}

export interface CaughtGoogleUpdate {
  objectId: string;
  object: object;
  at: string;
}

/** The embedded default's catcher (a generated key, no Google account): the updates of this process, newest first. */
export class GoogleUpdateCatcher implements GoogleObjectUpdater {
  readonly caught: CaughtGoogleUpdate[] = [];
  async update(objectId: string, object: object): Promise<'updated'> {
    this.caught.unshift({ objectId, object, at: new Date().toISOString() });
    this.caught.length = Math.min(this.caught.length, 500);
    return 'updated';
  }
}

const SCOPE = 'https://www.googleapis.com/auth/wallet_object.issuer';

/**
 * Google Wallet's REST API as a service account uses it: an OAuth access token from a signed JWT
 * (the jwt-bearer grant), kept until a minute before it ends, then PATCH of the event ticket object
 * (patch semantics: the fields sent replace theirs). A 404 is an object no family saved: the next
 * save link carries the current one anyway. Anything else but 2xx throws, for the job to retry.
 */
export class GoogleWalletApi implements GoogleObjectUpdater {
  private token: { value: string; until: number } | null = null;

  constructor(
    private readonly key: GoogleWalletKey,
    private readonly urls = {
      token: 'https://oauth2.googleapis.com/token',
      api: 'https://walletobjects.googleapis.com/walletobjects/v1',
    },
  ) {}

  async update(objectId: string, object: object): Promise<'updated' | 'absent'> {
    const res = await fetch(`${this.urls.api}/eventTicketObject/${encodeURIComponent(objectId)}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${await this.accessToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify(object),
      signal: AbortSignal.timeout(10_000),
    });
    if (res.status === 404) return 'absent';
    // A token Google no longer takes is fetched anew on the retry.
    if (res.status === 401) this.token = null;
    if (!res.ok) throw new Error(`Google Wallet answered ${res.status} to the update of ${objectId}`);
    return 'updated';
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value;
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(this.key.clientEmail)
      .setAudience(this.urls.token)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(await importPKCS8(this.key.privateKeyPem, 'RS256'));
    const res = await fetch(this.urls.token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`Google's token endpoint answered ${res.status}`);
    const body = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new Error("Google's token endpoint gave no access_token");
    this.token = { value: body.access_token, until: Date.now() + ((body.expires_in ?? 3600) - 60) * 1000 };
    return this.token.value;
  }
}
