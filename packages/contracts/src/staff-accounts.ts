import { z } from 'zod';
import { emailSchema, passwordSchema } from './accounts';
import { staffRoleSchema } from './staff-roles';

/** Staff accounts, invitations and the second factor (issue 34, decision 0050). */

/** At most this many locations on one account (a brand has a handful; the list is sent whole). */
export const MAX_STAFF_LOCATIONS = 50;
export const RECOVERY_CODE_COUNT = 10;

const locationIdsSchema = z
  .array(z.uuid())
  .max(MAX_STAFF_LOCATIONS)
  .refine((ids) => new Set(ids).size === ids.length, { message: 'List each location once' })
  .meta({ description: 'The locations the account may touch; empty means all' });

export const staffAccountSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    role: staffRoleSchema,
    locationIds: z.array(z.uuid()),
    mfaEnrolled: z.boolean(),
    active: z.boolean(),
    lastSignInAt: z.iso.datetime().nullable(),
    /** True until the invitation is accepted (no password set yet). */
    invitationPending: z.boolean(),
  })
  .meta({ id: 'StaffAccount' });
export type StaffAccount = z.infer<typeof staffAccountSchema>;

export const staffAccountListSchema = z.object({ items: z.array(staffAccountSchema) }).meta({ id: 'StaffAccountList' });

export const createStaffAccountSchema = z
  .strictObject({ email: emailSchema, role: staffRoleSchema, locationIds: locationIdsSchema.default([]) })
  .meta({ id: 'CreateStaffAccount' });
export type CreateStaffAccount = z.input<typeof createStaffAccountSchema>;

export const updateStaffAccountSchema = z
  .strictObject({
    role: staffRoleSchema.optional(),
    locationIds: locationIdsSchema.optional(),
    active: z.boolean().optional(),
    resetMfa: z.literal(true).optional().meta({
      description:
        'Lost phone and recovery codes: removes the second factor and ends the sessions; the member enrols again',
    }),
  })
  .refine((patch) => Object.keys(patch).length > 0, {
    message: 'Change at least one of role, locationIds, active, resetMfa',
  })
  .meta({ id: 'UpdateStaffAccount' });
export type UpdateStaffAccount = z.input<typeof updateStaffAccountSchema>;

export const staffAccountParamsSchema = z.strictObject({ id: z.uuid() });

export const acceptInvitationSchema = z
  .strictObject({ code: z.string().min(10).max(200), password: passwordSchema })
  .meta({ id: 'AcceptStaffInvitation' });
export type AcceptInvitation = z.input<typeof acceptInvitationSchema>;

export const messageSchema = z.object({ message: z.string() });

export const mfaSetupResponseSchema = z
  .object({
    secret: z.string().meta({ description: 'Base32, for typing into an app by hand' }),
    otpauthUrl: z.string(),
  })
  .meta({ id: 'MfaSetup' });
export type MfaSetupResponse = z.infer<typeof mfaSetupResponseSchema>;

export const mfaConfirmSchema = z
  .strictObject({
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'Enter the 6-digit code'),
  })
  .meta({ id: 'MfaConfirm' });
export type MfaConfirmRequest = z.input<typeof mfaConfirmSchema>;

export const mfaConfirmResponseSchema = z
  .object({
    recoveryCodes: z
      .array(z.string())
      .length(RECOVERY_CODE_COUNT)
      .meta({ description: 'Shown once; each works once instead of a code' }),
  })
  .meta({ id: 'MfaRecoveryCodes' });
export type MfaConfirmResponse = z.infer<typeof mfaConfirmResponseSchema>;

/** GET /staff/me: what the staff app needs to show only what the role may do. */
export const staffMeSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    role: staffRoleSchema,
    locationIds: z.array(z.uuid()),
    mfaEnrolled: z.boolean(),
    mfaRequired: z.boolean(),
  })
  .meta({ id: 'StaffMe' });
export type StaffMe = z.infer<typeof staffMeSchema>;
