// Placeholder: the auth-pages engineer replaces this with the spec §2 verification screen.
export function VerifyEmailPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold text-ink-900">Verify your email address</h1>
      <p className="text-ink-700">We sent a link to your email address. Open it to finish setting up your account.</p>
    </div>
  );
}
