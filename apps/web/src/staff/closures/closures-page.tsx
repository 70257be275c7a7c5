import type { ClosurePreview, ClosureRemedy } from '@kringle/contracts/closures';
import { formatAud } from '@kringle/contracts/money';
import type { StaffCatalogue } from '@kringle/contracts/staff';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { control, ErrorText, input, label } from '../parts/form-parts';
import { ClosurePreviewList } from './closure-preview-list';
import { ClosureProgress } from './closure-progress';
import { previewClosure, startClosure } from './closures-api';

type Location = StaffCatalogue['locations'][number];

interface Draft {
  locationId: string;
  from: string;
  to: string;
  slotTypeId: string;
  reason: string;
  remedy: ClosureRemedy;
  message: string;
}

const REMEDIES: { value: ClosureRemedy; text: string; hint: string }[] = [
  {
    value: 'offer_move',
    text: 'Offer each family another session',
    hint: 'The nearest free session of the same type is held for them; they accept it or take a full refund.',
  },
  {
    value: 'refund',
    text: 'Refund every family in full',
    hint: 'Each booking is cancelled and everything paid goes back to the card.',
  },
  {
    value: 'credit',
    text: 'Give every family account credit, with a bonus',
    hint:
      'Each booking is cancelled and everything paid becomes account credit for a later booking, with a bonus on ' +
      'top (the dry run shows how much). Nothing goes back to the card.',
  },
];

/**
 * Closing sessions (issue 35, decision 0055): the manager describes the closure, reads the dry run,
 * types the location's name and follows the job to its outcome per booking.
 */
export function ClosuresPage({ locations, initialLocationId }: { locations: Location[]; initialLocationId: string }) {
  const baseId = useId();
  const [draft, setDraft] = useState<Draft>({
    locationId: initialLocationId || (locations[0]?.id ?? ''),
    from: '',
    to: '',
    slotTypeId: '',
    reason: '',
    remedy: 'offer_move',
    message: '',
  });
  const [preview, setPreview] = useState<ClosurePreview | null>(null);
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [closureId, setClosureId] = useState<string | null>(null);
  const location = locations.find((l) => l.id === draft.locationId);
  const change = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    // Another closure now: the dry run and the confirmation were for the old one.
    setPreview(null);
    setConfirm('');
    setKey(crypto.randomUUID());
  };
  const range = () => ({
    locationId: draft.locationId,
    from: draft.from,
    to: draft.to,
    reason: draft.reason,
    ...(draft.slotTypeId ? { slotTypeId: draft.slotTypeId } : {}),
  });
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
    } catch (err) {
      setProblem(err instanceof ApiProblem ? err.message : 'That did not work. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  const onPreview = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => setPreview(await previewClosure(range())));
  };
  const onClose = () =>
    void run(async () =>
      setClosureId((await startClosure({ ...range(), remedy: draft.remedy, message: draft.message, confirm }, key)).id),
    );
  const types = [...new Map((preview?.sessions ?? []).map((s) => [s.slotTypeId, s.slotTypeName])).entries()];

  if (closureId) return <ClosureProgress id={closureId} />;
  return (
    <section aria-labelledby={`${baseId}-h`} className="flex flex-col gap-4">
      <h1 id={`${baseId}-h`} className="font-display text-2xl font-semibold">
        Close sessions
      </h1>
      <form onSubmit={onPreview} className="grid gap-3 sm:grid-cols-2" aria-label="The closure">
        <div className={label}>
          <label htmlFor={`${baseId}-loc`}>Location</label>
          <select
            id={`${baseId}-loc`}
            className={control}
            value={draft.locationId}
            onChange={(e) => change({ locationId: e.target.value, slotTypeId: '' })}
          >
            {locations.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </div>
        <div className={label}>
          <label htmlFor={`${baseId}-type`}>Session type</label>
          <select
            id={`${baseId}-type`}
            className={control}
            value={draft.slotTypeId}
            onChange={(e) => change({ slotTypeId: e.target.value })}
          >
            <option value="">All session types</option>
            {types.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className={label}>
          <label htmlFor={`${baseId}-from`}>From (the location&apos;s time)</label>
          <input
            id={`${baseId}-from`}
            type="datetime-local"
            required
            className={input}
            value={draft.from}
            onChange={(e) => change({ from: e.target.value })}
          />
        </div>
        <div className={label}>
          <label htmlFor={`${baseId}-to`}>Until</label>
          <input
            id={`${baseId}-to`}
            type="datetime-local"
            required
            className={input}
            value={draft.to}
            onChange={(e) => change({ to: e.target.value })}
          />
        </div>
        <div className={`${label} sm:col-span-2`}>
          <label htmlFor={`${baseId}-reason`}>Reason (the families read it)</label>
          <input
            id={`${baseId}-reason`}
            required
            minLength={3}
            maxLength={200}
            className={input}
            value={draft.reason}
            onChange={(e) => change({ reason: e.target.value })}
            placeholder="Santa is unwell"
          />
        </div>
        <fieldset className="flex flex-col gap-2 sm:col-span-2">
          <legend className="font-semibold">What each family gets</legend>
          {REMEDIES.map((r) => (
            <label key={r.value} className="flex items-start gap-3 rounded-lg border border-cream-300 bg-cream-50 p-3">
              <input
                type="radio"
                name="remedy"
                className="mt-1 size-5"
                checked={draft.remedy === r.value}
                onChange={() => change({ remedy: r.value })}
              />
              <span className="flex flex-col">
                <span className="font-semibold">{r.text}</span>
                <span className="text-sm text-ink-700">{r.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className={`${label} sm:col-span-2`}>
          <label htmlFor={`${baseId}-msg`}>A few words to the families (optional)</label>
          <textarea
            id={`${baseId}-msg`}
            maxLength={2000}
            rows={3}
            className={`${input} py-2`}
            value={draft.message}
            onChange={(e) => change({ message: e.target.value })}
          />
        </div>
        <Button type="submit" className="self-start sm:col-span-2 sm:justify-self-start" disabled={busy}>
          Show what this closes
        </Button>
      </form>
      {problem && <ErrorText id={`${baseId}-problem`}>{problem}</ErrorText>}
      {preview && location && (
        <>
          <ClosurePreviewList preview={preview} timezone={location.timezone} remedy={draft.remedy} />
          <div className="flex flex-col gap-3 rounded-xl border border-festive-700 bg-cream-50 p-4">
            <div className={label}>
              <label htmlFor={`${baseId}-confirm`}>
                Type <span className="font-mono">{location.name}</span> to confirm
              </label>
              <input
                id={`${baseId}-confirm`}
                autoComplete="off"
                className={input}
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
              />
            </div>
            <Button
              className="self-start"
              disabled={busy || confirm.trim() !== location.name || preview.sessions.length === 0}
              onClick={onClose}
            >
              Close {preview.sessions.length} {preview.sessions.length === 1 ? 'session' : 'sessions'}
              {draft.remedy === 'refund' && preview.refundTotalCents > 0
                ? ` and refund ${formatAud(preview.refundTotalCents)}`
                : ''}
            </Button>
            <p className="text-sm text-ink-700">
              The sessions stop selling at once; each family is e-mailed as its booking is handled.
            </p>
          </div>
        </>
      )}
    </section>
  );
}
