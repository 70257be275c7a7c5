import type { AuditEntry } from '@kringle/contracts/audit';
import { zoneAbbreviation } from '@kringle/contracts/dates';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { input, label } from '../parts/form-parts';
import { AuditList } from './support-booking';
import { auditCsv, auditPage, type AuditFilter } from './support-api';

type Field = 'family' | 'reference' | 'staffEmail' | 'from' | 'to';

const FIELDS: { key: Field; text: string; type: string; hint?: string; autoComplete?: string }[] = [
  { key: 'family', text: 'Family', type: 'search', hint: 'E-mail or name, or part of it' },
  { key: 'reference', text: 'Booking reference', type: 'search' },
  { key: 'staffEmail', text: 'Staff e-mail', type: 'search', hint: 'What they did, and changes to their account' },
  { key: 'from', text: 'From (day)', type: 'date' },
  { key: 'to', text: 'To (day)', type: 'date' },
];
/** Links from elsewhere (a booking's page, a staff member's) may still name raw ids: kept, not shown as fields. */
const URL_KEYS: (keyof AuditFilter)[] = [...FIELDS.map((f) => f.key), 'bookingId', 'actorId'];

const filterInUrl = (): AuditFilter => {
  const p = new URLSearchParams(window.location.search);
  return Object.fromEntries(URL_KEYS.flatMap((k) => (p.get(k) ? [[k, p.get(k)!]] : [])));
};

/** What is sent: the days are the location's local days. */
const withZone = (f: AuditFilter, timezone: string): AuditFilter => (f.from || f.to ? { ...f, timeZone: timezone } : f);

/**
 * The manager's audit page (issues 34 and 53): by family, booking reference, staff e-mail and the
 * location's local day, each entry in plain words, with CSV export of the same filter.
 */
export function AuditPage({ timezone, locationName }: { timezone: string; locationName?: string }) {
  const [draft, setDraft] = useState<AuditFilter>(filterInUrl);
  const [filter, setFilter] = useState<AuditFilter>(filterInUrl);
  const [items, setItems] = useState<AuditEntry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const baseId = useId();

  useEffect(() => {
    auditPage(withZone(filter, timezone))
      .then((page) => {
        setItems(page.items);
        setCursor(page.nextCursor);
        setProblem(null);
      })
      .catch((err: unknown) =>
        setProblem(err instanceof ApiProblem ? err.message : 'The audit trail could not be loaded.'),
      );
  }, [filter, timezone]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const clean = Object.fromEntries(Object.entries(draft).filter(([, v]) => v)) as AuditFilter;
    window.history.replaceState(
      null,
      '',
      `/staff/support/audit?${new URLSearchParams(clean as Record<string, string>).toString()}`,
    );
    setFilter(clean);
  };
  const clear = () => {
    window.history.replaceState(null, '', '/staff/support/audit');
    setDraft({});
    setFilter({});
  };
  const more = () => {
    if (!cursor) return;
    void auditPage(withZone(filter, timezone), cursor).then((page) => {
      setItems((old) => [...(old ?? []), ...page.items]);
      setCursor(page.nextCursor);
    });
  };
  const zone = `${locationName ? `${locationName} ` : ''}local time (${zoneAbbreviation(new Date(), timezone)})`;
  const hidden = (['bookingId', 'actorId'] as const).filter((k) => filter[k]);
  const narrowedTo = hidden.map((k) => (k === 'bookingId' ? 'booking' : 'staff member')).join(' and one ');

  return (
    <section aria-labelledby={`${baseId}-h`} className="flex flex-col gap-4">
      <h1 id={`${baseId}-h`} className="font-display text-2xl font-semibold">
        Audit trail
      </h1>
      <form
        onSubmit={onSubmit}
        className="grid gap-3 sm:grid-cols-3 lg:grid-cols-5"
        aria-label="Filter the audit trail"
      >
        {FIELDS.map((f) => (
          <div key={f.key} className={label}>
            <label htmlFor={`${baseId}-${f.key}`}>{f.text}</label>
            <input
              id={`${baseId}-${f.key}`}
              type={f.type}
              className={input}
              value={draft[f.key] ?? ''}
              aria-describedby={f.hint ? `${baseId}-${f.key}-hint` : undefined}
              onChange={(e) => setDraft((d) => ({ ...d, [f.key]: e.target.value.trim() }))}
            />
            {f.hint && (
              <span id={`${baseId}-${f.key}-hint`} className="text-xs font-normal text-ink-700">
                {f.hint}
              </span>
            )}
          </div>
        ))}
        <p className="text-sm text-ink-700 sm:col-span-3 lg:col-span-5">Days and times are {zone}.</p>
        <div className="flex flex-wrap gap-2 sm:col-span-3 lg:col-span-5">
          <Button type="submit">Show</Button>
          <Button variant="secondary" onClick={clear}>
            Clear
          </Button>
          <Button variant="secondary" onClick={() => void auditCsv(withZone(filter, timezone))}>
            Export CSV
          </Button>
        </div>
      </form>
      {hidden.length > 0 && (
        <p className="text-sm text-ink-700">Also narrowed to one {narrowedTo} (from the link you followed).</p>
      )}
      <p role="status" className="text-sm text-ink-700">
        {problem ??
          (items ? `${items.length}${cursor ? '+' : ''} ${items.length === 1 ? 'entry' : 'entries'}` : 'Loading…')}
      </p>
      {items && <AuditList entries={items} timezone={timezone} showSubject />}
      {cursor && (
        <Button variant="secondary" className="self-start" onClick={more}>
          Show more
        </Button>
      )}
    </section>
  );
}
