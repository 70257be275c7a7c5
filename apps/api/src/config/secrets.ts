import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { exportPKCS8, generateKeyPair } from 'jose';
import { ConfigError, type Config } from './config';

export interface Secrets {
  jwtPrivateKeyPem: string;
  appCheckSecret: string;
}

/**
 * Signing keys come from configuration; on the embedded default they are generated once into
 * the data folder so that tokens survive a restart. Outside the embedded default they are required.
 */
export async function resolveSecrets(config: Config): Promise<Secrets> {
  const file = path.resolve(config.DATA_DIR, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (config.embedded && fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Secrets>;

  const jwtPrivateKeyPem = config.JWT_PRIVATE_KEY?.replace(/\\n/g, '\n') ?? stored.jwtPrivateKeyPem;
  const appCheckSecret = config.APP_CHECK_SECRET ?? stored.appCheckSecret;
  if (!config.embedded) {
    if (!jwtPrivateKeyPem)
      throw new ConfigError(
        'Invalid configuration: JWT_PRIVATE_KEY: required when DATABASE_URL is set (an ES256 private key in PKCS#8 ' +
          'PEM)',
      );
    if (!appCheckSecret)
      throw new ConfigError(
        'Invalid configuration: APP_CHECK_SECRET: required when DATABASE_URL is set (at least 32 characters)',
      );
  }
  const secrets: Secrets = {
    jwtPrivateKeyPem: jwtPrivateKeyPem ?? (await generateJwtKey()),
    appCheckSecret: appCheckSecret ?? randomBytes(32).toString('base64url'),
  };
  if (config.embedded) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets;
}

export async function generateJwtKey(): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return exportPKCS8(privateKey);
}
