import { TERMS_SECTIONS, TERMS_TITLE, TERMS_UPDATED } from '@kringle/contracts/terms';
import { buttonClasses } from '../../components/ui/button';
import { DocumentSections, PublicDocument } from '../../components/ui/public-document';

export const TERMS_PDF_URL = '/api/v1/common/terms.pdf';

const updated = new Date(`${TERMS_UPDATED}T00:00:00Z`).toLocaleDateString('en-AU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** /terms_and_conditions: public, without the app layout; the PDF renders the same text. */
export function TermsPage({ brandName }: { brandName: string }) {
  return (
    <PublicDocument brandName={brandName} title={TERMS_TITLE}>
      <p className="mt-2 text-ink-600">Last updated {updated}</p>
      <a
        href={TERMS_PDF_URL}
        target="_blank"
        rel="noopener"
        className={buttonClasses('secondary', 'mt-5')}
        data-testid="terms-pdf-link"
      >
        Download as PDF
      </a>
      <div className="mt-8 flex flex-col gap-8">
        <DocumentSections sections={TERMS_SECTIONS} />
      </div>
    </PublicDocument>
  );
}
