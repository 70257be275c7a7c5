import type { FastifyBaseLogger } from 'fastify';
import type { ChangeEmailRequest, User } from '@kringle/contracts/accounts';
import type { Db } from '../../db/client';
import { errors } from '../../lib/errors';
import type { Clock } from '../../lib/clock';
import { enqueueMail, keepMailOfAddress } from '../mail/outbox.repository';
import { verifyEmailMail } from './accounts.emails';
import * as actionCodes from './action-codes.repository';
import { allowedOrigin, createActionLink } from './action-links';
import { verifyPassword } from './passwords';
import { toUser } from './users.mapper';
import * as users from './users.repository';

export interface EmailChangeSettings {
  brandName: string;
  appOrigins: readonly string[];
  log: FastifyBaseLogger;
}

/** PostgreSQL's unique violation: another account took the address between the check and the update. */
const isUniqueViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === '23505';

/**
 * PUT /user/me/email (decision 0068): an account not yet verified corrects a mistyped address.
 * One transaction, the user row locked: the address moves, every unused link of the account (the
 * old address's verification links, and reset links, which verify too) is void, the mail it had
 * at the old address stays its own, and one verification mail goes to the new address. The same
 * request again finds the address already moved and answers the same account, sending nothing.
 */
export class EmailChangeService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: EmailChangeSettings,
  ) {}

  async changeEmail(userId: string, body: Required<ChangeEmailRequest>): Promise<User> {
    const origin = allowedOrigin(body.redirectUrl, this.settings.appOrigins);
    const before = await users.findUserById(this.db, userId);
    if (!before) throw errors.sessionEnded();
    // The hash is checked outside the transaction (it takes a while); the locked row must still have it.
    if (!(await verifyPassword(before.passwordHash, body.password)))
      throw errors.wrongPassword('body.password', 'The password is not right.');
    const now = this.clock.now();
    const outcome = { moved: false };
    try {
      const user = await this.db.transaction(async (tx) => {
        // The links first, then the account: the order a link being used right now takes them in.
        await actionCodes.lockUnusedActionCodes(tx, userId);
        const row = await users.lockUser(tx, userId);
        if (!row) throw errors.sessionEnded();
        if (row.isStaff) throw errors.staffNotAllowed();
        if (row.passwordHash !== before.passwordHash)
          throw errors.wrongPassword('body.password', 'The password is not right.');
        if (row.emailVerifiedAt)
          throw errors.alreadyVerified('Your email address is already verified, so it can no longer be changed here.');
        // Already there (the same request twice, or the address it has): nothing to send again.
        if (row.email === body.email) return row;
        // As registration answers a taken address (and as cheaply); the unique index decides a race.
        if (await users.findUserByEmail(tx, body.email)) throw errors.emailInUse();
        await keepMailOfAddress(tx, row.email, row.id);
        await actionCodes.voidActionCodes(tx, row.id, null, now);
        const changed = await users.changeEmail(tx, row.id, body.email, now);
        const link = await createActionLink(tx, row.id, 'verifyEmail', origin, now);
        await enqueueMail(
          tx,
          verifyEmailMail({
            brandName: this.settings.brandName,
            to: changed.email,
            firstName: changed.firstName,
            link,
          }),
        );
        outcome.moved = true;
        return changed;
      });
      // Ids only: the addresses are the family's, and a log is kept longer than the account.
      if (outcome.moved)
        this.settings.log.info(
          { event: 'account.email_changed', userId },
          'unverified account changed its e-mail address',
        );
      return toUser(user);
    } catch (err) {
      if (isUniqueViolation(err)) throw errors.emailInUse();
      throw err;
    }
  }
}
