/**
 * Every action the audit trail writes, by name (issue 48 item 5): a const list and its union type,
 * as cal.com's booking audit does, so an entry cannot be written under a free string and every
 * action has a label on the audit page. The booking transitions keep the names of
 * booking-lifecycle/transition-table.ts; the actions on staff accounts, the waiting room, photos
 * and a family's own details are `subject.verb` names.
 */
export const AUDIT_ACTIONS = [
  // A booking's transitions (transition-table.ts).
  'openCheckout',
  'confirmPaid',
  'loseSessionAfterPayment',
  'refundLatePayment',
  'failPayment',
  'cancelPayment',
  'lapseCheckout',
  'cancel',
  'reschedule',
  'staffReschedule',
  'staffCancel',
  'closureCancel',
  'closureMove',
  'refundPart',
  'staffEditDetails',
  'sellWalkIn',
  'openPhotoOrder',
  'payPhotoOrder',
  'refundPhotoOrder',
  'failPhotoOrder',
  'checkIn',
  'markNoShow',
  'undoCheckIn',
  'undoNoShow',
  // Photos.
  'downloadPhotoOriginal',
  'downloadPhotoZip',
  'extendPhotoGallery',
  'photo.uploaded',
  'photo.assigned',
  'photo.unlocked',
  // A session's hold (session-holds.repository.ts, hold-statements.repository.ts).
  'takeHold',
  'refreshHold',
  'releaseHold',
  'expireHold',
  'offerFromWaitlist',
  'passOffer',
  'lapseOffer',
  'claimOffer',
  'closeSession',
  'offerClosureMove',
  'endClosureOffer',
  // Refunds (refund-transitions.ts).
  'settleRefund',
  'giveUpRefund',
  'refundReported',
  // The season (season-versions.repository.ts).
  'saveSeason',
  // Staff accounts: who can do what.
  'staff.invited',
  'staff.invitation_accepted',
  'staff.role_changed',
  'staff.locations_changed',
  'staff.deactivated',
  'staff.reactivated',
  'staff.mfa_enrolled',
  'staff.mfa_reset',
  'staff.mfa_locked',
  // The waiting room of a location.
  'queue.paused',
  'queue.resumed',
  // A family's own edits of its data.
  'family.profile_changed',
  'family.booking_details_changed',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const isAuditAction = (s: string): s is AuditAction => (AUDIT_ACTIONS as readonly string[]).includes(s);
