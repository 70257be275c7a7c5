import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from './logo';

/** A public page of plain words (terms, privacy): the brand's header, a title and what goes under it. */
export function PublicDocument({
  brandName,
  title,
  children,
}: {
  brandName: string;
  title: string;
  children: ReactNode;
}) {
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
        <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">{title}</h1>
        {children}
      </main>
    </div>
  );
}

/** Headed sections of paragraphs, as the terms and the privacy policy are written. */
export function DocumentSections({
  sections,
}: {
  sections: readonly { heading: string; paragraphs: readonly string[] }[];
}) {
  return sections.map((section) => (
    <section key={section.heading}>
      <h2 className="mb-3 text-xl font-semibold text-ink-900">{section.heading}</h2>
      {section.paragraphs.map((p) => (
        <p key={p} className="mb-3 leading-relaxed text-ink-700">
          {p}
        </p>
      ))}
    </section>
  ));
}
