import type { z } from 'zod';
import { sendPasswordResetRequestSchema, signInRequestSchema, type registerFormSchema } from '@kringle/contracts/accounts';

/**
 * The forms' schemas all come from the shared contracts (registerFormSchema and
 * newPasswordFormSchema live there with every password rule), so the forms refuse exactly
 * what the API refuses. Only the form-shaped cuts are made here.
 */
export type RegisterFormOutput = z.output<typeof registerFormSchema>;

export const signInFormSchema = signInRequestSchema;
export type SignInFormInput = z.input<typeof signInFormSchema>;

/** The redirect is the site origin, added on submit, not typed by the user. */
export const forgotPasswordFormSchema = sendPasswordResetRequestSchema.pick({ email: true });
export type ForgotPasswordFormInput = z.input<typeof forgotPasswordFormSchema>;
