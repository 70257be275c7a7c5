import { Link } from 'react-router';

// Placeholder: the auth-pages engineer replaces this with the registration form.
export function RegisterPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold text-ink-900">Create your account</h1>
      <p className="text-ink-700">Book photos with Santa in a few minutes. Registration is on its way.</p>
      <p className="text-ink-700">
        Already have an account?{' '}
        <Link to="/login" className="inline-flex min-h-11 items-center font-medium text-festive-700 underline underline-offset-4">
          Log in
        </Link>
      </p>
    </div>
  );
}
