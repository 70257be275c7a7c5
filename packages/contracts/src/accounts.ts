import { z } from 'zod';
import { isValidEmail, normaliseEmail } from './email';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const emailSchema = z
  .string()
  .trim()
  .max(254)
  .refine(isValidEmail, { message: 'Enter a valid email address' })
  .transform(normaliseEmail);

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, { message: `Use at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { message: `Use at most ${PASSWORD_MAX} characters` });

export const userSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    emailVerified: z.boolean(),
    firstName: z.string(),
    lastName: z.string(),
    displayName: z.string(),
    phone: z.string().nullable(),
    preferredLocationId: z.uuid().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;
