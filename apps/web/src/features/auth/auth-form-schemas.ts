import { z } from 'zod';
import { passwordProblem, passwordSchema, registerRequestSchema, sendPasswordResetRequestSchema, signInRequestSchema } from '@kringle/contracts/accounts';

/**
 * Form schemas composed from the shared contracts, so the forms refuse exactly what the API
 * refuses: the spec §5 e-mail rule, 8–128 characters, not the e-mail, not a common password.
 */
export const registerFormSchema = registerRequestSchema.superRefine((value, ctx) => {
  const problem = passwordProblem(value.password, value.email);
  if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
});
export type RegisterFormInput = z.input<typeof registerFormSchema>;
export type RegisterFormOutput = z.output<typeof registerFormSchema>;

export const signInFormSchema = signInRequestSchema;
export type SignInFormInput = z.input<typeof signInFormSchema>;

/** The redirect is the site origin, added on submit, not typed by the user. */
export const forgotPasswordFormSchema = sendPasswordResetRequestSchema.pick({ email: true });
export type ForgotPasswordFormInput = z.input<typeof forgotPasswordFormSchema>;

/** The reset link only shows the e-mail masked, so the "not your e-mail" rule is left to the API (WEAK_PASSWORD). */
export const newPasswordFormSchema = z.object({ newPassword: passwordSchema }).superRefine((value, ctx) => {
  const problem = passwordProblem(value.newPassword);
  if (problem) ctx.addIssue({ code: 'custom', path: ['newPassword'], message: problem });
});
export type NewPasswordFormInput = z.input<typeof newPasswordFormSchema>;
