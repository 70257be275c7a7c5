import { Link } from 'react-router';
import { TERMS_SECTIONS, TERMS_TITLE, TERMS_UPDATED } from '@kringle/contracts/terms';
import { buttonClasses } from '../../components/ui/button';
import { Logo } from '../../components/ui/logo';

export const TERMS_PDF_URL = '/api/v1/common/terms.pdf';

const updated = new Date(`${TERMS_UPDATED}T00:00:00Z`).toLocaleDateString('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** /terms_and_conditions: public, without the app layout; the PDF renders the same text. */
export function TermsPage({ brandName }: { brandName: string }) {
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
        <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">{TERMS_TITLE}</h1>
        <p className="mt-2 text-ink-600">Last updated {updated}</p>
        <a href={TERMS_PDF_URL} target="_blank" rel="noopener" className={buttonClasses('secondary', 'mt-5')} data-testid="terms-pdf-link">
          Download as PDF
        </a>
        <div className="mt-8 flex flex-col gap-8">
          {TERMS_SECTIONS.map((section) => (
            <section key={section.heading}>
              <h2 className="mb-3 text-xl font-semibold text-ink-900">{section.heading}</h2>
              {section.paragraphs.map((p) => (
                <p key={p} className="mb-3 leading-relaxed text-ink-700">
                  {p}
                </p>
              ))}
            </section>
          ))}
        </div>
      </main>
    </div>
  );
}
