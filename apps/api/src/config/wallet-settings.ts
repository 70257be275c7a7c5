import { z } from 'zod';

/** Wallet passes; config.ts composes them into the environment, loadConfig checks each wallet's are all set or none. */
export const walletSettings = {
  /**
   * Apple Wallet (decision 0099): the pass type's certificate and key (PEM; `\n` escapes allowed),
   * its identifiers and Apple's WWDR intermediate. Unset outside production: a generated self-signed set.
   */
  APPLE_PASS_CERT: z.string().min(1).optional(),
  APPLE_PASS_KEY: z.string().min(1).optional(),
  APPLE_PASS_KEY_PASSPHRASE: z.string().min(1).optional(),
  APPLE_PASS_TYPE_ID: z
    .string()
    .regex(/^pass\.[A-Za-z0-9.-]+$/, 'a pass type identifier, pass.com.example.santa')
    .optional(),
  APPLE_TEAM_ID: z
    .string()
    .regex(/^[A-Z0-9]{10}$/, 'a 10-character Apple team id')
    .optional(),
  APPLE_WWDR_CERT: z.string().min(1).optional(),
  /** Google Wallet: the issuer id and the service account's key JSON. Unset outside production: a generated key. */
  GOOGLE_WALLET_ISSUER_ID: z
    .string()
    .regex(/^\d{5,25}$/, 'the numeric issuer id')
    .optional(),
  GOOGLE_WALLET_SERVICE_ACCOUNT: z.string().min(1).optional(),
};
