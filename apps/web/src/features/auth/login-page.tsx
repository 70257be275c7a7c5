import { Link } from 'react-router';

// Placeholder: the auth-pages engineer replaces this with the sign-in form.
export function LoginPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold text-ink-900">Log in</h1>
      <p className="text-ink-700">Welcome back. Sign-in is on its way.</p>
      <p className="text-ink-700">
        New here?{' '}
        <Link to="/register" className="inline-flex min-h-11 items-center font-medium text-festive-700 underline underline-offset-4">
          Create an account
        </Link>
      </p>
    </div>
  );
}
