// Placeholder: the auth-pages engineer replaces this with the /verify action-link handler.
export function VerifyActionPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold text-ink-900">Checking your link</h1>
      <p className="text-ink-700">Email links for verification and password resets open here.</p>
    </div>
  );
}
