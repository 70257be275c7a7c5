import { formatClockTime } from '@kringle/contracts/dates';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { SheetRow, type RunSheetItem, type SheetRowProps } from './run-sheet-row';

/** Sessions later today with no family, in a run: one line until staff open it. */
export interface QuietRun {
  kind: 'quiet';
  items: RunSheetItem[];
}
export type LaterEntry = { kind: 'row'; item: RunSheetItem } | QuietRun;

const isQuiet = (i: RunSheetItem) => i.slot.kind === 'session' && !i.booking;

/**
 * The day split for the set on a phone (issue 37): what is on now, what comes next (families in
 * full, runs of sessions without a family folded into one line each), and what is over.
 */
export function nowAndNext(items: RunSheetItem[], now: number) {
  const earlier = items.filter((i) => Date.parse(i.slot.endAt) <= now);
  const current = items.filter((i) => Date.parse(i.slot.startAt) <= now && now < Date.parse(i.slot.endAt));
  const later: LaterEntry[] = [];
  for (const item of items.filter((i) => Date.parse(i.slot.startAt) > now)) {
    const last = later.at(-1);
    if (!isQuiet(item)) later.push({ kind: 'row', item });
    else if (last?.kind === 'quiet') last.items.push(item);
    else later.push({ kind: 'quiet', items: [item] });
  }
  return { earlier, current, later };
}

type RowProps = Omit<SheetRowProps, 'item' | 'now' | 'problem'> & { problemOf: (item: RunSheetItem) => string | null };

const keyOf = (i: RunSheetItem) => `${i.slot.id}-${i.booking?.id ?? 'none'}`;

/** What a folded run holds, in words: "3 free sessions" or "2 sessions: 1 free, 1 being booked online". */
function quietSummary(items: RunSheetItem[]) {
  const free = items.filter((i) => i.slot.state === 'free').length;
  const held = items.filter((i) => i.slot.state === 'held').length;
  const other = items.length - free - held;
  const parts = [free && `${free} free`, held && `${held} being booked online`, other && `${other} closed`].filter(
    Boolean,
  );
  if (free === items.length) return `${free} free session${free === 1 ? '' : 's'}`;
  return `${items.length} session${items.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

function Rows({ items, props }: { items: RunSheetItem[]; props: RowProps }) {
  const { problemOf, ...rest } = props;
  return (
    <ol className="space-y-2">
      {items.map((item) => (
        <SheetRow key={keyOf(item)} item={item} now={false} problem={problemOf(item)} {...rest} />
      ))}
    </ol>
  );
}

function Folded({ label, summary, children }: { label: string; summary: string; children: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="rounded-xl bg-cream-100 ring-1 ring-cream-300">
      <div className="flex items-center justify-between gap-3 px-4 py-1.5">
        <span className="min-w-0">
          <span className="block font-semibold">{label}</span>
          <span className="text-sm text-ink-700">{summary}</span>
        </span>
        <Button
          variant="secondary"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          aria-label={`${open ? 'Hide' : 'Show'} ${label}: ${summary}`}
        >
          {open ? 'Hide' : 'Show'}
        </Button>
      </div>
      {open && <div className="px-2 pb-2">{children}</div>}
    </div>
  );
}

/** The run sheet as the set needs it on a phone: now, next, the rest folded. */
export function NowAndNext({ items, timezone, props }: { items: RunSheetItem[]; timezone: string; props: RowProps }) {
  // Split at each render: the sheet is read again every few seconds, so "now" moves on with it.
  const { earlier, current, later } = nowAndNext(items, new Date().getTime());
  const span = (list: RunSheetItem[]) =>
    `${formatClockTime(list[0]!.slot.startAt, timezone)} – ${formatClockTime(list.at(-1)!.slot.endAt, timezone)}`;
  const nextFamily = later.find((e) => e.kind === 'row' && e.item.booking);
  return (
    <div className="space-y-5">
      <section aria-labelledby="now-title" className="space-y-2">
        <h2 id="now-title" className="text-xl font-semibold">
          Now
        </h2>
        {current.length > 0 ? (
          <Rows items={current} props={props} />
        ) : (
          <p className="text-ink-700">No session is on right now.</p>
        )}
      </section>
      <section aria-labelledby="next-title" className="space-y-2">
        <h2 id="next-title" className="text-xl font-semibold">
          Next
        </h2>
        {later.length === 0 && <p className="text-ink-700">Nothing more today.</p>}
        {later.length > 0 && !nextFamily && <p className="text-ink-700">No more families booked today.</p>}
        <ol className="space-y-2">
          {later.map((entry) =>
            entry.kind === 'row' ? (
              <SheetRow
                key={keyOf(entry.item)}
                item={entry.item}
                now={false}
                problem={props.problemOf(entry.item)}
                {...withoutProblem(props)}
              />
            ) : (
              <li key={`quiet-${entry.items[0]!.slot.id}`}>
                <Folded label={span(entry.items)} summary={quietSummary(entry.items)}>
                  <Rows items={entry.items} props={props} />
                </Folded>
              </li>
            ),
          )}
        </ol>
      </section>
      {earlier.length > 0 && (
        <section aria-labelledby="earlier-title" className="space-y-2">
          <h2 id="earlier-title" className="text-xl font-semibold">
            Earlier today
          </h2>
          <Folded
            label={span(earlier)}
            summary={
              plural(earlier.filter((i) => i.slot.kind === 'session').length, 'session') +
              ', ' +
              plural(earlier.filter((i) => i.booking).length, 'family', 'families')
            }
          >
            <Rows items={earlier} props={props} />
          </Folded>
        </section>
      )}
    </div>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const withoutProblem = ({ problemOf: _, ...rest }: RowProps) => rest;
