import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, jwtVerify, SignJWT } from 'jose';
import { idTokenClaimsSchema } from '@kringle/contracts/accounts';
import type { StaffRole } from '@kringle/contracts/staff-roles';
import type { Clock } from '../../lib/clock';

/** ID tokens live 15 minutes (API.md); the refresh cookie renews them. */
export const ID_TOKEN_TTL_SECONDS = 15 * 60;
const ALG = 'ES256';

export interface IdTokenSubject {
  id: string;
  email: string;
  emailVerified: boolean;
  isStaff: boolean;
  staffRole: StaffRole | null;
  /** The account's session epoch now (users.session_epoch; 0 when not given): decision 0063. */
  sessionEpoch?: number;
  /** How the session was signed into (RFC 8176 `amr`: 'pwd', 'otp'), from its refresh family (decision 0080). */
  amr?: readonly string[];
  /** The refresh family the token belongs to (`sid`): enrolment keeps that session alone (decision 0080). */
  sessionId?: string;
}

/** What a verified ID token tells the routes about the caller. */
export interface AuthClaims {
  userId: string;
  email: string;
  emailVerified: boolean;
  /** The `dashboard_user` claim: a staff account, refused by every customer route. */
  staff: boolean;
  /** The token's `exp` (ms since the epoch): a live stream ends then (issue 36). */
  expiresAtMs: number;
  /** The `staff_role` claim (decision 0050); null for customers. The database has the last word (staff-access.ts). */
  staffRole: StaffRole | null;
  /** The `session_epoch` claim (0 when absent): refused once the account's epoch is higher (session-cutoffs.ts). */
  sessionEpoch: number;
  /** The `amr` claim; undefined on tokens issued before it existed (decision 0080). */
  amr?: string[];
  /** The `sid` claim: the refresh family of the session. */
  sessionId?: string;
}

export interface IssuedIdToken {
  idToken: string;
  expiresAt: Date;
}

export interface IdTokenSettings {
  privateKeyPem: string;
  issuer: string;
  audience: string;
  clock: Clock;
}

/** Signs and verifies ES256 ID tokens with the configured key; `kid` names the key for rotation. */
export class IdTokens {
  private constructor(
    private readonly privateKey: KeyObject,
    private readonly publicKey: KeyObject,
    private readonly kid: string,
    private readonly settings: IdTokenSettings,
  ) {}

  static async create(settings: IdTokenSettings): Promise<IdTokens> {
    const privateKey = createPrivateKey(settings.privateKeyPem);
    if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new Error('The JWT signing key must be an ES256 (P-256) private key');
    }
    const publicKey = createPublicKey(privateKey);
    const kid = await calculateJwkThumbprint(await exportJWK(publicKey));
    return new IdTokens(privateKey, publicKey, kid, settings);
  }

  async issue(user: IdTokenSubject): Promise<IssuedIdToken> {
    const iat = Math.floor(this.settings.clock.now().getTime() / 1000);
    const exp = iat + ID_TOKEN_TTL_SECONDS;
    const roleClaim = user.isStaff && user.staffRole ? { staff_role: user.staffRole } : {};
    // `amr` and `sid` only on staff tokens: nothing reads them on a family's, and every byte of
    // the header is paid on each of its requests (decision 0077).
    const sessionClaims = user.isStaff
      ? { ...(user.amr ? { amr: [...user.amr] } : {}), ...(user.sessionId ? { sid: user.sessionId } : {}) }
      : {};
    const claims = {
      email: user.email,
      email_verified: user.emailVerified,
      dashboard_user: user.isStaff,
      ...roleClaim,
      session_epoch: user.sessionEpoch ?? 0,
      ...sessionClaims,
    };
    const idToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: ALG, typ: 'JWT', kid: this.kid })
      .setSubject(user.id)
      .setIssuer(this.settings.issuer)
      .setAudience(this.settings.audience)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.privateKey);
    return { idToken, expiresAt: new Date(exp * 1000) };
  }

  /**
   * Returns the caller's claims, or null for any token that is not ours and current: wrong
   * algorithm (none, HS*), signature, `kid`, issuer or audience, expired, or missing claims.
   */
  async verify(token: string): Promise<AuthClaims | null> {
    try {
      const { payload } = await jwtVerify(
        token,
        (header) => {
          if (header.kid !== this.kid) throw new Error('unknown kid');
          return this.publicKey;
        },
        {
          algorithms: [ALG],
          issuer: this.settings.issuer,
          audience: this.settings.audience,
          currentDate: this.settings.clock.now(),
          requiredClaims: ['sub', 'iat', 'exp'],
        },
      );
      const claims = idTokenClaimsSchema.safeParse(payload);
      if (!claims.success) return null;
      return {
        userId: claims.data.sub,
        email: claims.data.email,
        emailVerified: claims.data.email_verified,
        staff: claims.data.dashboard_user,
        expiresAtMs: payload.exp! * 1000,
        staffRole: claims.data.dashboard_user ? (claims.data.staff_role ?? null) : null,
        sessionEpoch: claims.data.session_epoch ?? 0,
        ...(claims.data.amr ? { amr: claims.data.amr } : {}),
        ...(claims.data.sid ? { sessionId: claims.data.sid } : {}),
      };
    } catch {
      return null;
    }
  }
}
