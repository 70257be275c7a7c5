import { ACCESS_CONSENT, needsConsent } from '@kringle/contracts/consent';
import {
  bookingDetailsSchemaFor,
  type BookingDetails as FamilyDetails,
  type BookingDetailsBody,
  type DetailsRules,
} from '@kringle/contracts/booking-details';
import type { DbOrTx } from '../../db/client';
import { consents } from '../../db/schema/privacy';
import { errors } from '../../lib/errors';

export interface CheckedDetails {
  details: FamilyDetails;
  /** True when the details carry access needs or a note, so a consent is recorded with them. */
  consented: boolean;
}

/**
 * Checks details as sent by the family, the support desk or a walk-in sale: the session type's
 * rules, and the parent's consent for access needs (health information, APP 3.3; decision 0058).
 * `at` is where the details sit in the body, for the error's paths.
 */
export function checkDetailsInput(body: BookingDetailsBody, rules: DetailsRules, at: string[]): CheckedDetails {
  const { consent, ...rest } = body;
  const parsed = bookingDetailsSchemaFor(rules).safeParse(rest);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => ({
      path: [...at, ...i.path.map(String)].join('.'),
      message: i.message,
    }));
    throw errors.validation(problems, problems[0]?.message);
  }
  const consented = needsConsent(parsed.data);
  if (consented && consent !== true) throw errors.consentRequired([...at, 'consent'].join('.'));
  return { details: parsed.data, consented };
}

/** Records the consent given with a booking's access needs, in the transaction that saves them. */
export async function recordAccessConsent(
  tx: DbOrTx,
  args: { userId: string | null; bookingId: string; recordedBy: string | null; now: Date },
): Promise<void> {
  await tx.insert(consents).values({
    userId: args.userId,
    bookingId: args.bookingId,
    kind: 'access_needs',
    wordingVersion: ACCESS_CONSENT.version,
    givenAt: args.now,
    recordedBy: args.recordedBy,
  });
}
