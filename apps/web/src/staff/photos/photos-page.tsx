import { localDateOf } from '@kringle/contracts/dates';
import type { RejectedPhoto, StaffPhoto } from '@kringle/contracts/photos';
import type { StaffCatalogue } from '@kringle/contracts/staff';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { familyName } from '../parts/booking-card';
import { useRunSheet } from '../run-sheet/use-run-sheet';
import { batchesOf, postPhotos, sendHalvingOnTimeout } from './photo-upload';
import { UnmatchedTray } from './unmatched-tray';

type Location = StaffCatalogue['locations'][number];
/** The family in front of the camera, when the page was opened from the run sheet. */
export interface PhotoTarget {
  id: string;
  reference: string;
  name: string;
}
type BatchState = { state: 'waiting' | 'sending' | 'retrying' | 'done' } | { state: 'failed'; message: string };
interface Batch {
  indexes: number[];
  status: BatchState;
  /** Files of the batch already kept by the API (a failed batch sent in halves after a 408). */
  sent: number[];
  /** The sequence's run at the batch's end (done) or where its unsent files start (failed after some went). */
  run?: string | null;
}
type BatchAnswer = {
  assigned: { bookingId: string; count: number }[];
  unmatched: StaffPhoto[];
  openRunOf: string | null;
  rejected: RejectedPhoto[];
};

const STATE_WORDS: Record<BatchState['state'], string> = {
  waiting: 'Waiting',
  sending: 'Sending',
  retrying: 'Trying again',
  done: 'Uploaded',
  failed: 'Not sent',
};

/**
 * Uploading at the set (issue 39): the photos of one family (opened from the run sheet), or a
 * whole shooting sequence where each photo of a family's check-in QR code starts their photos.
 * Requests go one after another in shooting order, each retried on its own; the result says
 * how many photos each booking got, and the unmatched ones wait in the tray.
 */
export function PhotosPage({
  location,
  target,
  onClearTarget,
}: {
  location: Location;
  target: PhotoTarget | null;
  onClearTarget: () => void;
}) {
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number[]>([]);
  const [batches, setBatches] = useState<Batch[]>([]);
  const [assigned, setAssigned] = useState<Record<string, number>>({});
  const [unmatched, setUnmatched] = useState<StaffPhoto[]>([]);
  const [handAssigned, setHandAssigned] = useState<string[]>([]);
  // Files the API could not keep (unreadable, or more pixels than it takes): named, the rest of their request kept.
  const [rejected, setRejected] = useState<RejectedPhoto[]>([]);
  const [running, setRunning] = useState(false);
  const { sheet } = useRunSheet(location.id, localDateOf(new Date(), location.timezone));
  const nameOf = (bookingId: string) => {
    if (target?.id === bookingId) return `${target.name}, ${target.reference}`;
    const b = sheet?.items.find((i) => i.booking?.id === bookingId)?.booking;
    return b ? `${familyName(b.customer).fullname}, ${b.reference}` : 'A booking on another day';
  };

  const setBatch = (at: number, change: Partial<Batch>) =>
    setBatches((all) => all.map((b, i) => (i === at ? { ...b, ...change } : b)));
  const send = async (all: Batch[], which: number[]) => {
    setRunning(true);
    // The run each batch ended with, for the next to continue (a sequence cut into requests keeps its families).
    const runs = all.map((b) => (b.status.state === 'done' ? (b.run ?? null) : undefined));
    for (const at of which) {
      const batch = all[at]!;
      const sent = [...batch.sent];
      let run = batch.sent.length ? (batch.run ?? null) : at > 0 ? (runs[at - 1] ?? null) : null;
      const unsent = batch.indexes.filter((i) => !sent.includes(i));
      setBatch(at, { status: { state: 'sending' } });
      try {
        await sendHalvingOnTimeout(unsent, async (part, attempt) => {
          if (attempt > 0 || part.length < unsent.length) setBatch(at, { status: { state: 'retrying' } });
          const chosen = part.map((i) => files[i]!);
          const onProgress = (perFile: number[]) =>
            setProgress((p) => p.map((v, i) => (part.includes(i) ? perFile[part.indexOf(i)]! : v)));
          const answer = target
            ? await postPhotos<{ items: StaffPhoto[]; rejected: RejectedPhoto[] }>(
                `/staff/bookings/${target.id}/photos`,
                chosen,
                onProgress,
              ).then((r): BatchAnswer => ({
                assigned: [{ bookingId: target.id, count: r.items.length }],
                unmatched: [],
                openRunOf: null,
                rejected: r.rejected,
              }))
            : await postPhotos<BatchAnswer>(
                `/staff/photos/batch?` +
                  new URLSearchParams({ locationId: location.id, ...(run ? { continueRunOf: run } : {}) }).toString(),
                chosen,
                onProgress,
              );
          sent.push(...part);
          run = answer.openRunOf;
          setAssigned((a) =>
            answer.assigned.reduce((sum, x) => ({ ...sum, [x.bookingId]: (sum[x.bookingId] ?? 0) + x.count }), a),
          );
          setUnmatched((u) => [...u, ...answer.unmatched]);
          setRejected((r) => [...r, ...answer.rejected]);
          setBatch(at, { sent: [...sent], run });
        });
        runs[at] = run;
        setBatch(at, { status: { state: 'done' } });
      } catch (e) {
        // The API keeps a request's photos all or none: what was not kept is sent again, never what was.
        setProgress((p) => p.map((v, i) => (batch.indexes.includes(i) && !sent.includes(i) ? 0 : v)));
        setBatch(at, {
          status: { state: 'failed', message: e instanceof Error ? e.message : 'The upload did not go through.' },
        });
      }
    }
    setRunning(false);
  };
  const start = () => {
    const next = batchesOf(files.map((file, index) => ({ size: file.size, index }))).map((g): Batch => ({
      indexes: g.map((f) => f.index),
      status: { state: 'waiting' },
      sent: [],
    }));
    setBatches(next);
    setProgress(files.map(() => 0));
    void send(
      next,
      next.map((_, i) => i),
    );
  };
  const failed = batches.flatMap((b, i) => (b.status.state === 'failed' ? [i] : []));
  const statusOf = (index: number): BatchState => {
    const batch = batches.find((b) => b.indexes.includes(index));
    return batch?.sent.includes(index) ? { state: 'done' } : (batch?.status ?? { state: 'waiting' });
  };
  const total = Object.values(assigned).reduce((a, b) => a + b, 0);

  return (
    <section aria-labelledby="photos-title" className="space-y-4">
      <h1 id="photos-title" className="text-3xl font-semibold">
        {target ? `Photos for ${target.name}, ${target.reference}` : `Photos: ${location.name}`}
      </h1>
      {target ? (
        <p className="flex flex-wrap items-center gap-3 text-ink-700">
          Every photo you choose goes to this booking.
          <Button variant="secondary" onClick={onClearTarget} disabled={running}>
            Upload a sequence instead
          </Button>
        </p>
      ) : (
        <p className="max-w-3xl text-ink-700">
          Choose a shooting sequence in order. Photograph each family's check-in QR code (their phone or printed card)
          before their photos: the photos after it are theirs. Photos before the first code wait in the unmatched tray.
        </p>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex max-w-full flex-col gap-1 text-sm font-semibold">
          Photos (JPEG)
          <input
            type="file"
            accept="image/jpeg"
            multiple
            disabled={running}
            onChange={(e) => {
              setFiles(Array.from(e.target.files ?? []));
              setBatches([]);
              setProgress([]);
            }}
            className={
              'min-h-11 max-w-full rounded-lg border border-cream-300 bg-cream-50 px-3 py-2 text-base ' + 'font-normal'
            }
          />
        </label>
        <Button variant="confirm" disabled={running || files.length === 0} aria-busy={running} onClick={start}>
          {running ? 'Uploading…' : `Upload ${files.length} photo${files.length === 1 ? '' : 's'}`}
        </Button>
        {failed.length > 0 && !running && (
          <Button variant="secondary" onClick={() => void send(batches, failed)}>
            Try the failed ones again
          </Button>
        )}
      </div>
      {batches.length > 0 && (
        <ol aria-label="Upload progress" className="grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
          {files.map((file, i) => {
            const status = statusOf(i);
            return (
              <li
                key={`${file.name}-${i}`}
                className="flex flex-col gap-1 rounded-lg bg-cream-50 px-3 py-2 ring-1 ring-cream-300"
              >
                <span className="flex justify-between gap-2 text-sm">
                  <span className="truncate font-mono">{file.name}</span>
                  <span className={status.state === 'failed' ? 'font-semibold text-festive-800' : 'text-ink-700'}>
                    {STATE_WORDS[status.state]}
                  </span>
                </span>
                <progress
                  className="h-2 w-full accent-pine-700"
                  max={1}
                  value={status.state === 'done' ? 1 : (progress[i] ?? 0)}
                  aria-label={`${file.name} sent`}
                />
              </li>
            );
          })}
        </ol>
      )}
      {batches.map((b, i) => {
        const unsent = b.indexes.length - b.sent.length;
        return b.status.state === 'failed' ? (
          <p key={i} role="alert" className="rounded-lg bg-festive-50 px-4 py-3 font-semibold text-festive-800">
            {unsent} photo{unsent === 1 ? '' : 's'} not sent: {b.status.message}
          </p>
        ) : null;
      })}
      {rejected.length > 0 && (
        <section
          role="alert"
          aria-labelledby="photos-rejected"
          className="space-y-1 rounded-lg bg-festive-50 px-4 py-3 text-festive-800"
        >
          <h2 id="photos-rejected" className="font-semibold">
            {rejected.length} file{rejected.length === 1 ? '' : 's'} not kept (the others were)
          </h2>
          <ul data-testid="photos-rejected">
            {rejected.map((r, i) => (
              <li key={`${r.file}-${i}`}>{r.message}</li>
            ))}
          </ul>
        </section>
      )}
      {(total > 0 || handAssigned.length > 0) && (
        <section aria-labelledby="photos-result" className="space-y-2 rounded-xl bg-pine-50 p-4">
          <h2 id="photos-result" className="text-xl font-semibold">
            Uploaded
          </h2>
          <ul data-testid="photos-assigned">
            {Object.entries(assigned).map(([bookingId, count]) => (
              <li key={bookingId}>
                {count} photo{count === 1 ? '' : 's'}: {nameOf(bookingId)}
              </li>
            ))}
            {handAssigned.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </section>
      )}
      <UnmatchedTray
        location={location}
        photos={unmatched}
        onAssigned={(photoId, reference) => {
          setUnmatched((u) => u.filter((p) => p.id !== photoId));
          setHandAssigned((h) => [...h, `1 photo assigned by hand: ${reference}`]);
        }}
      />
    </section>
  );
}
