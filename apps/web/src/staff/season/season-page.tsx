import type { SeasonPreview } from '@kringle/contracts/season-editor';
import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { control, label } from '../parts/form-parts';
import { downloadSeason, getSeason, previewSeason, saveSeason, type SeasonFile } from './season-api';
import { describeChange } from './season-changes';
import { AddButton, freshSlug } from './season-fields';
import { LocationForm } from './season-location-form';
import { ProductsForm } from './season-products-form';

type Notice = { kind: 'problem' | 'stale' | 'saved'; text: string; details?: string[] };

/**
 * The managers' season editor (issue 35, decision 0056): the season file as a form. Preview shows
 * what a save would do to the sessions; a save names the version it edited, so a manager who
 * edited an older one is told to reload instead of overwriting a colleague's change.
 */
export function SeasonPage({ timezone }: { timezone: string }) {
  const [file, setFile] = useState<SeasonFile | null>(null);
  /** The file as last loaded or saved: what is new since then. */
  const [saved, setSaved] = useState<SeasonFile | null>(null);
  const [etag, setEtag] = useState('');
  const [locationIndex, setLocationIndex] = useState(0);
  const [preview, setPreview] = useState<SeasonPreview | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    getSeason()
      .then((live) => {
        setFile(live.file);
        setSaved(live.file);
        setEtag(live.etag);
        setPreview(null);
        setNotice(null);
      })
      .catch((err: unknown) =>
        setNotice({
          kind: 'problem',
          text: err instanceof ApiProblem ? err.message : 'The season could not be loaded.',
        }),
      );
  }, []);
  useEffect(load, [load]);

  const edit = (change: (draft: SeasonFile) => void) => {
    setFile((old) => {
      const next = structuredClone(old!);
      change(next);
      return next;
    });
    setPreview(null);
  };
  const failed = (err: unknown) => {
    if (!(err instanceof ApiProblem))
      return setNotice({ kind: 'problem', text: 'Something went wrong. Please try again.' });
    if (err.code === 'SEASON_VERSION_STALE') return setNotice({ kind: 'stale', text: err.message });
    setNotice({
      kind: 'problem',
      text: err.code === 'VALIDATION_FAILED' ? 'The season has problems to fix:' : err.message,
      details: err.details.map((d) => `${d.path}: ${d.message}`),
    });
  };
  const run = async (task: () => Promise<void>) => {
    setBusy(true);
    try {
      await task();
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  };
  const onPreview = () =>
    run(async () => {
      setNotice(null);
      setPreview(await previewSeason(file!));
    });
  const onSave = () =>
    run(async () => {
      try {
        const { saved, etag: next } = await saveSeason(file!, etag);
        const changed = preview?.changes?.length ?? 0;
        setEtag(next);
        setSaved(file);
        setPreview(null);
        const also = changed
          ? ` ${changed} ${changed === 1 ? 'change' : 'changes'} to prices and settings applied.`
          : '';
        setNotice({
          kind: 'saved',
          text:
            `Saved as version ${saved.version}: ${saved.sessionsAdded} sessions added, ${saved.sessionsRemoved} ` +
            `removed, ${saved.sessionsChanged} changed.${also}`,
        });
      } catch (err) {
        // Booked in the meantime: the list says which sessions to close first.
        if (err instanceof ApiProblem && err.code === 'SESSIONS_HAVE_BOOKINGS') setPreview(await previewSeason(file!));
        throw err;
      }
    });

  const copyLocation = () => {
    const index = file!.locations.length;
    edit((f) => {
      const from = f.locations[locationIndex]!;
      f.locations.push({
        ...structuredClone(from),
        slug: freshSlug(`${from.slug}-copy`, f.locations),
        name: `${from.name} (copy)`,
      });
    });
    setLocationIndex(index);
  };

  if (!file || !saved)
    return notice ? <NoticeBox notice={notice} onReload={load} /> : <p className="text-ink-700">Loading…</p>;
  const location = file.locations[locationIndex] ?? file.locations[0]!;
  return (
    <div className="flex flex-col gap-4 pb-28">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-display text-3xl font-semibold text-ink-900">Season</h1>
          <p className="text-ink-700">
            Version {etag.replace(/\D/g, '')} is live. Changes apply to sessions from now on.
          </p>
        </div>
        <Button variant="secondary" onClick={() => void run(() => downloadSeason(etag))}>
          Download season file
        </Button>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <label className={`${label} w-full max-w-md`}>
          Location to edit
          <select className={control} value={locationIndex} onChange={(e) => setLocationIndex(Number(e.target.value))}>
            {file.locations.map((l, i) => (
              <option key={l.slug} value={i}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        {/* Its own box: the button alone would sit at the row's top, above the select's line. */}
        <div>
          <AddButton onClick={copyLocation}>Add a location (a copy of this one)</AddButton>
        </div>
      </div>
      <LocationForm
        key={`${etag}-${location.slug}`}
        location={location}
        isNew={!saved.locations.some((l) => l.slug === location.slug)}
        slotTypes={file.slotTypes}
        edit={(change) => edit((f) => change(f.locations[locationIndex]!))}
      />
      <ProductsForm key={etag} file={file} saved={saved} edit={edit} />

      <div
        className="sticky bottom-0 -mx-4 flex flex-col gap-3 border-t border-cream-300 bg-cream-100 px-4 py-3"
        aria-live="polite"
      >
        {notice && <NoticeBox notice={notice} onReload={load} />}
        {preview && <PreviewBox preview={preview} timezone={timezone} file={file} />}
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" disabled={busy} onClick={() => void onPreview()}>
            Preview changes
          </Button>
          <Button disabled={busy || !preview || preview.conflicts.length > 0} onClick={() => void onSave()}>
            Save
          </Button>
          {!preview && <p className="self-center text-sm text-ink-700">Preview first to see what the change does.</p>}
        </div>
      </div>
    </div>
  );
}

function NoticeBox({ notice, onReload }: { notice: Notice; onReload: () => void }) {
  const tone = notice.kind === 'saved' ? 'bg-pine-50 text-pine-800' : 'bg-festive-50 text-festive-800';
  return (
    <div
      role={notice.kind === 'saved' ? 'status' : 'alert'}
      className={`flex flex-col gap-2 rounded-lg px-3 py-2 font-semibold ${tone}`}
    >
      <p>{notice.text}</p>
      {notice.details && notice.details.length > 0 && (
        <ul className="list-disc pl-5 font-normal">
          {notice.details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
      {notice.kind === 'stale' && (
        <Button variant="secondary" className="self-start" onClick={onReload}>
          Reload the season (your changes here are dropped)
        </Button>
      )}
    </div>
  );
}

function PreviewBox({ preview, timezone, file }: { preview: SeasonPreview; timezone: string; file: SeasonFile }) {
  const when = new Intl.DateTimeFormat('en-AU', {
    timeZone: timezone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  });
  const changes = preview.changes ?? [];
  return (
    // Scrolls when long, inside the sticky bar: focusable and named, so a keyboard can scroll it too.
    <div
      role="region"
      aria-label="What saving would change"
      tabIndex={0}
      className="flex max-h-[50dvh] flex-col gap-2 overflow-y-auto rounded"
      data-testid="season-preview"
    >
      <p className="font-semibold text-ink-900">
        This change adds {preview.sessionsAdded} sessions, removes {preview.sessionsRemoved} and changes{' '}
        {preview.sessionsChanged}.
      </p>
      {/* Prices, the opening time and the rest of the file: what a save makes take effect besides the sessions (issue
         53 item 6). */}
      {changes.length > 0 ? (
        <div>
          <p className="font-semibold text-ink-900">
            {changes.length === 1 ? 'It also changes 1 thing:' : `It also changes ${changes.length} things:`}
          </p>
          <ul className="list-disc pl-5 text-ink-900 break-words">
            {changes.map((c) => (
              <li key={`${c.item}-${c.slug ?? ''}-${c.field ?? c.change}`}>{describeChange(c, file)}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="text-ink-700">Nothing else changes: prices, opening times and settings stay as they are.</p>
      )}
      {preview.conflicts.length > 0 && (
        <div className="rounded-lg bg-festive-50 px-3 py-2 text-festive-800">
          <p className="font-semibold">
            Families are booked in {preview.conflicts.length} of those sessions, so this cannot be saved. Close those
            sessions instead, or keep their hours:
          </p>
          <ul className="list-disc pl-5">
            {preview.conflicts.map((c) => (
              <li key={c.slotId}>
                {when.format(new Date(c.startAt))} at {c.location}:{' '}
                {c.reference ? `booking ${c.reference}` : 'a family is holding it'} ({c.change})
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
