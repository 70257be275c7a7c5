import { Link } from 'react-router';
import { Logo } from '../../components/ui/logo';
import { useGetPrivacyPolicyQuery } from './api';

/** /privacy: the policy in force (GET /common/privacy), public, without the app layout, like the terms. */
export function PrivacyPage({ brandName }: { brandName: string }) {
  const { data: policy, isError, refetch } = useGetPrivacyPolicyQuery();
  return (
    <div className="min-h-dvh bg-cream-100">
      <header className="border-b border-cream-300 bg-cream-50">
        <div className="mx-auto flex max-w-3xl items-center gap-3 px-4 py-4">
          <Link to="/" className="flex min-h-11 items-center gap-3" aria-label={`${brandName} home`}>
            <Logo brandName={brandName} decorative className="size-10" />
            <span className="font-display text-xl font-semibold text-festive-700">{brandName}</span>
          </Link>
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
        <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">Privacy policy</h1>
        <p className="mt-2 text-ink-600">What we keep about your family, why, who sees it, for how long, and how to ask about it.</p>
        {isError && (
          <p role="alert" className="mt-6 text-festive-800">
            The policy could not be loaded.{' '}
            <button type="button" className="min-h-11 font-semibold underline" onClick={() => void refetch()}>
              Try again
            </button>
          </p>
        )}
        {!policy && !isError && <div className="mt-8 h-64 animate-pulse rounded-2xl bg-cream-200" aria-hidden="true" />}
        {policy && (
          <div className="mt-8 flex flex-col gap-8">
            {policy.sections.map((section) => (
              <section key={section.heading}>
                <h2 className="mb-3 text-xl font-semibold text-ink-900">{section.heading}</h2>
                {section.paragraphs.map((p) => (
                  <p key={p} className="mb-3 leading-relaxed text-ink-700">
                    {p}
                  </p>
                ))}
              </section>
            ))}
            <p className="text-ink-700">
              Contact:{' '}
              <a href={`mailto:${policy.contactEmail}`} className="font-semibold text-festive-700 underline underline-offset-4">
                {policy.contactEmail}
              </a>
            </p>
          </div>
        )}
      </main>
    </div>
  );
}
