import type { DonationReport } from '@kringle/contracts/donation-reports';
import { useId } from 'react';
import { Button } from '../../components/ui/button';
import { DonationsTable } from './report-tables';

/**
 * The donations for the charity (issue 52), apart from the sales: they are outside GST and the
 * goods' figures, and the charity is sent their CSV.
 */
export function DonationsReport({ report, onDownload }: { report: DonationReport; onDownload: () => void }) {
  const headingId = useId();
  // Without a charity the API refuses donations: an empty table would say so less plainly.
  const none = report.charityName === null && report.items.length === 0;
  const about =
    report.charityName !== null
      ? `Donations to ${report.charityName}`
      : none
        ? 'No charity is configured, so families are not asked to donate (the operator sets CHARITY_NAME).'
        : 'Donations given while a charity was configured; none is configured now (CHARITY_NAME).';
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="font-display text-xl font-semibold">
          Donations
        </h2>
        {!none && (
          <Button variant="secondary" onClick={onDownload}>
            Download donations CSV
          </Button>
        )}
      </div>
      <p className="text-sm text-ink-700">{about}</p>
      {!none && <DonationsTable report={report} />}
    </section>
  );
}
