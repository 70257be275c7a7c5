import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordFormSchema, type ForgotPasswordFormInput } from './auth-form-schemas';

/** Loaded on demand by /forgot-password (lazy-resolver.ts): zod stays out of its first paint. */
export const forgotPasswordResolver = zodResolver<ForgotPasswordFormInput, unknown, ForgotPasswordFormInput>(forgotPasswordFormSchema);
