import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { exportPKCS8, generateKeyPair } from 'jose';
import type { Config } from '../../config/config';
import { generatePassCertificates, type PassCertificates } from './pass-certificates';

export interface GoogleWalletKey {
  issuerId: string;
  clientEmail: string;
  privateKeyPem: string;
}

export interface WalletKeys {
  /** Null in production without the APPLE_ settings (and likewise Google): 503 WALLET_UNAVAILABLE. */
  apple: PassCertificates | null;
  google: GoogleWalletKey | null;
  /** Keys the passes' authenticationTokens (apple-pass.ts passAuthToken). */
  authKey: string;
}

const pem = (v: string) => v.replace(/\\n/g, '\n');

/** The configured Apple set, or null. */
function configuredApple(config: Config): PassCertificates | null {
  if (!config.APPLE_PASS_CERT) return null;
  return {
    signerCert: pem(config.APPLE_PASS_CERT),
    signerKey: pem(config.APPLE_PASS_KEY!),
    signerKeyPassphrase: config.APPLE_PASS_KEY_PASSPHRASE,
    wwdr: pem(config.APPLE_WWDR_CERT!),
    passTypeId: config.APPLE_PASS_TYPE_ID!,
    teamId: config.APPLE_TEAM_ID!,
    selfSigned: false,
  };
}

function configuredGoogle(config: Config): GoogleWalletKey | null {
  if (!config.GOOGLE_WALLET_SERVICE_ACCOUNT) return null;
  const account = JSON.parse(config.GOOGLE_WALLET_SERVICE_ACCOUNT) as { client_email?: string; private_key?: string };
  if (!account.client_email || !account.private_key)
    throw new Error('GOOGLE_WALLET_SERVICE_ACCOUNT: a service account key JSON with client_email and private_key');
  return {
    issuerId: config.GOOGLE_WALLET_ISSUER_ID!,
    clientEmail: account.client_email,
    privateKeyPem: account.private_key,
  };
}

async function generatedGoogle(): Promise<GoogleWalletKey> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    issuerId: '3388000000000000000',
    clientEmail: 'kringle-dev@kringle-dev.iam.gserviceaccount.com',
    privateKeyPem: await exportPKCS8(privateKey),
  };
}

/**
 * The wallet's keys (decision 0099), resolved on first use (key generation takes a second or
 * two, which start-up and the tests that never touch a pass should not pay). Configured keys
 * win; otherwise, outside production, a generated self-signed set: kept in the data folder on the
 * embedded default, so passes already added still update after a restart; in memory elsewhere.
 * Production without configured keys has no such pass (503 WALLET_UNAVAILABLE).
 */
export class WalletKeyring {
  private pending: Promise<WalletKeys> | null = null;
  constructor(
    private readonly config: Config,
    private readonly signingSecret: string,
  ) {}

  get(): Promise<WalletKeys> {
    return (this.pending ??= this.resolve());
  }

  /** True when the passes are signed by a generated set (said at start on the embedded default). */
  get selfSigned(): boolean {
    return !this.config.APPLE_PASS_CERT;
  }

  private async resolve(): Promise<WalletKeys> {
    const authKey = createHash('sha256').update(`kringle-wallet-auth:${this.signingSecret}`).digest('base64url');
    const apple = configuredApple(this.config);
    const google = configuredGoogle(this.config);
    if (apple && google) return { apple, google, authKey };
    if (this.config.NODE_ENV === 'production') return { apple, google, authKey };
    const file = this.config.embedded ? path.join(this.config.DATA_DIR, 'wallet-dev-keys.json') : null;
    let stored: Partial<Omit<WalletKeys, 'authKey'>> = {};
    if (file && fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof stored;
    const keys = {
      apple: apple ?? stored.apple ?? generatePassCertificates(),
      google: google ?? stored.google ?? (await generatedGoogle()),
    };
    if (file && (!stored.apple || !stored.google)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
    }
    return { ...keys, authKey };
  }
}
