import { DocumentSections, PublicDocument } from '../../components/ui/public-document';
import { LoadProblem } from '../../components/ui/load-problem';
import { useGetPrivacyPolicyQuery } from './api';

/**
 * /privacy: the policy in force (GET /common/privacy), public, without the app layout, like the terms; the
 * children's notice first, in a panel of its own, then the full policy.
 */
export function PrivacyPage({ brandName }: { brandName: string }) {
  const { data: policy, isError, refetch } = useGetPrivacyPolicyQuery();
  return (
    <PublicDocument brandName={brandName} title="Privacy policy">
      <p className="mt-2 text-ink-600">
        What we keep about your family, why, who sees it, for how long, and how to ask about it.
      </p>
      {isError && (
        <LoadProblem className="mt-6" onRetry={() => void refetch()}>
          The policy could not be loaded.
        </LoadProblem>
      )}
      {!policy && !isError && <div className="mt-8 h-64 animate-pulse rounded-2xl bg-cream-200" aria-hidden="true" />}
      {policy && (
        <div className="mt-8 flex flex-col gap-8">
          {/* The notice a child and a parent can read together (OAIC Children's Online Privacy Code), first. */}
          <aside
            aria-labelledby="childrens-notice"
            data-testid="childrens-notice"
            className="rounded-2xl border-2 border-gold-400 bg-cream-50 p-5 sm:p-6"
          >
            <h2 id="childrens-notice" className="mb-3 font-display text-2xl font-semibold text-festive-700">
              {policy.childrensNotice.heading}
            </h2>
            {policy.childrensNotice.paragraphs.map((p) => (
              <p key={p} className="mb-3 text-lg leading-relaxed text-ink-900 last:mb-0">
                {p}
              </p>
            ))}
          </aside>
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
