import type { z } from 'zod';
import {
  changeEmailRequestSchema,
  newPasswordFormSchema,
  registerFormSchema,
  sendPasswordResetRequestSchema,
  signInRequestSchema,
} from '@kringle/contracts/accounts';

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

/** The verify screen's change of address: the redirect is the site origin, added on submit. */
export const changeEmailFormSchema = changeEmailRequestSchema.pick({ email: true, password: true });
export type ChangeEmailFormInput = z.input<typeof changeEmailFormSchema>;
export type ChangeEmailFormOutput = z.output<typeof changeEmailFormSchema>;

/** What use-light-form expects from a check: the parsed values, or the first message per field. */
export interface FormCheck<TOutput> {
  output?: TOutput;
  errors: Record<string, string>;
}

/** Checks a form with a schema as zodResolver does (first message per field), without react-hook-form. */
function checkWith<TOutput>(schema: z.ZodType<TOutput>) {
  return (values: unknown): FormCheck<TOutput> => {
    const result = schema.safeParse(values);
    if (result.success) return { output: result.data, errors: {} };
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
    return { errors };
  };
}

export const checkSignInForm = checkWith(signInFormSchema);
export const checkRegisterForm = checkWith(registerFormSchema);
export const checkForgotPasswordForm = checkWith(forgotPasswordFormSchema);
export const checkNewPasswordForm = checkWith(newPasswordFormSchema);
export const checkChangeEmailForm = checkWith(changeEmailFormSchema);
