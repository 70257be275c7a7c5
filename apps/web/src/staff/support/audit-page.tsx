import type { AuditEntry } from '@kringle/contracts/audit';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { input, label } from '../form-parts';
import { AuditList } from './support-booking';
import { auditCsv, auditPage, type AuditFilter } from './support-api';

const FIELDS: { key: keyof AuditFilter; text: string; type: string }[] = [
  { key: 'bookingId', text: 'Booking id', type: 'text' },
  { key: 'actorId', text: 'Staff member id', type: 'text' },
  { key: 'from', text: 'From (day, UTC)', type: 'date' },
  { key: 'to', text: 'To (day, UTC)', type: 'date' },
];

const filterInUrl = (): AuditFilter => {
  const p = new URLSearchParams(window.location.search);
  return Object.fromEntries(FIELDS.flatMap((f) => (p.get(f.key) ? [[f.key, p.get(f.key)!]] : [])));
};

/** The manager's audit page (issue 34): per booking, per staff member, per day, with CSV export. */
export function AuditPage({ timezone }: { timezone: string }) {
  const [draft, setDraft] = useState<AuditFilter>(filterInUrl);
  const [filter, setFilter] = useState<AuditFilter>(filterInUrl);
  const [items, setItems] = useState<AuditEntry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const baseId = useId();

  useEffect(() => {
    auditPage(filter)
      .then((page) => {
        setItems(page.items);
        setCursor(page.nextCursor);
        setProblem(null);
      })
      .catch((err: unknown) => setProblem(err instanceof ApiProblem ? err.message : 'The audit trail could not be loaded.'));
  }, [filter]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const clean = Object.fromEntries(Object.entries(draft).filter(([, v]) => v)) as AuditFilter;
    window.history.replaceState(null, '', `/staff/support/audit?${new URLSearchParams(clean as Record<string, string>).toString()}`);
    setFilter(clean);
  };
  const more = () => {
    if (!cursor) return;
    void auditPage(filter, cursor).then((page) => {
      setItems((old) => [...(old ?? []), ...page.items]);
      setCursor(page.nextCursor);
    });
  };

  return (
    <section aria-labelledby={`${baseId}-h`} className="flex flex-col gap-4">
      <h1 id={`${baseId}-h`} className="font-display text-2xl font-semibold">
        Audit trail
      </h1>
      <form onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Filter the audit trail">
        {FIELDS.map((f) => (
          <div key={f.key} className={label}>
            <label htmlFor={`${baseId}-${f.key}`}>{f.text}</label>
            <input id={`${baseId}-${f.key}`} type={f.type} className={input} value={draft[f.key] ?? ''} onChange={(e) => setDraft((d) => ({ ...d, [f.key]: e.target.value.trim() }))} />
          </div>
        ))}
        <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-4">
          <Button type="submit">Show</Button>
          <Button variant="secondary" onClick={() => void auditCsv(filter)}>
            Export CSV
          </Button>
        </div>
      </form>
      <p role="status" className="text-sm text-ink-700">
        {problem ?? (items ? `${items.length}${cursor ? '+' : ''} ${items.length === 1 ? 'entry' : 'entries'}` : 'Loading…')}
      </p>
      {items && <AuditList entries={items} timezone={timezone} />}
      {cursor && (
        <Button variant="secondary" className="self-start" onClick={more}>
          Show more
        </Button>
      )}
    </section>
  );
}
