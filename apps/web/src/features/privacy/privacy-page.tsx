import { DocumentSections, PublicDocument } from '../../components/ui/public-document';
import { useGetPrivacyPolicyQuery } from './api';

/** /privacy: the policy in force (GET /common/privacy), public, without the app layout, like the terms. */
export function PrivacyPage({ brandName }: { brandName: string }) {
  const { data: policy, isError, refetch } = useGetPrivacyPolicyQuery();
  return (
    <PublicDocument brandName={brandName} title="Privacy policy">
      <p className="mt-2 text-ink-600">
        What we keep about your family, why, who sees it, for how long, and how to ask about it.
      </p>
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
          <DocumentSections sections={policy.sections} />
          <p className="text-ink-700">
            Contact:{' '}
            <a
              href={`mailto:${policy.contactEmail}`}
              className="font-semibold text-festive-700 underline underline-offset-4"
            >
              {policy.contactEmail}
            </a>
          </p>
        </div>
      )}
    </PublicDocument>
  );
}
