import { Link } from 'react-router';

// Placeholder: the auth-pages engineer replaces this with the reset-request form.
export function ForgotPasswordPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold text-ink-900">Forgot your password?</h1>
      <p className="text-ink-700">Password reset is on its way.</p>
      <Link to="/login" className="inline-flex min-h-11 items-center font-medium text-festive-700 underline underline-offset-4">
        Back to login
      </Link>
    </div>
  );
}
