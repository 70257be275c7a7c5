import { useId } from 'react';
import { control, label } from '../parts/form-parts';
import type { SeasonFile, SeasonFileLocation } from './season-api';
import { AddButton, Field, joinWindow, RemoveButton, Section, SlugField, splitWindow } from './season-fields';
import { OpeningFields } from './season-opening-fields';

const DAYS = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
] as const;
type Day = (typeof DAYS)[number][0];
const STATES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'] as const;
const ZONES = [
  'Australia/Sydney',
  'Australia/Melbourne',
  'Australia/Brisbane',
  'Australia/Adelaide',
  'Australia/Darwin',
  'Australia/Perth',
  'Australia/Hobart',
];

type Edit = (change: (loc: SeasonFileLocation) => void) => void;

/** One location of the season: where it is, its days and hours, Santa's breaks, the days it is shut. */
export function LocationForm({
  location: loc,
  isNew,
  slotTypes,
  edit,
}: {
  location: SeasonFileLocation;
  isNew: boolean;
  slotTypes: SeasonFile['slotTypes'];
  edit: Edit;
}) {
  const zones = useId();
  const breaks = loc.breaks ?? [];
  const closed = loc.closedDates ?? [];
  return (
    <Section title={loc.name || loc.slug}>
      <div className="grid gap-3 md:grid-cols-2">
        {isNew && <SlugField slug={loc.slug} onChange={(v) => edit((l) => void (l.slug = v))} />}
        <Field label="Name" value={loc.name} onChange={(v) => edit((l) => void (l.name = v))} />
        <Field
          label="Address"
          value={loc.address}
          maxLength={200}
          onChange={(v) => edit((l) => void (l.address = v))}
        />
        <Field label="Suburb" value={loc.suburb} maxLength={80} onChange={(v) => edit((l) => void (l.suburb = v))} />
        <div className="grid grid-cols-[8rem_1fr] gap-3">
          <label className={`${label} text-sm`}>
            State
            <select
              className={control}
              value={loc.state}
              onChange={(e) => edit((l) => void (l.state = e.target.value as SeasonFileLocation['state']))}
            >
              {STATES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label className={`${label} text-sm`}>
            Time zone
            <input
              className={control}
              list={zones}
              value={loc.timezone}
              maxLength={60}
              onChange={(e) => edit((l) => void (l.timezone = e.target.value))}
            />
            <datalist id={zones}>
              {ZONES.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          </label>
        </div>
        <Field
          label="Season starts"
          type="date"
          value={loc.seasonStart}
          onChange={(v) => edit((l) => void (l.seasonStart = v))}
        />
        <Field
          label="Season ends"
          type="date"
          value={loc.seasonEnd}
          onChange={(v) => edit((l) => void (l.seasonEnd = v))}
        />
      </div>
      <OpeningFields location={loc} edit={edit} />

      <h3 className="mt-2 font-semibold text-ink-900">Opening hours</h3>
      <p className="text-sm text-ink-700">
        Each row: a session type, its days and hours. Sessions of the type&apos;s length fill the hours.
      </p>
      {loc.sessions.map((rule, i) => {
        const [from, to] = splitWindow(rule.hours);
        const n = i + 1;
        return (
          <fieldset key={i} className="flex flex-wrap items-end gap-3 rounded-lg p-3 ring-1 ring-cream-300">
            <legend className="px-1 text-sm font-semibold">Hours {n}</legend>
            <label className={`${label} text-sm`}>
              Session type
              <select
                className={control}
                value={rule.slotType}
                onChange={(e) => edit((l) => void (l.sessions[i]!.slotType = e.target.value))}
              >
                {slotTypes.map((t) => (
                  <option key={t.slug} value={t.slug}>
                    {t.name}
                  </option>
                ))}
              </select>
            </label>
            <fieldset className="flex flex-wrap gap-1">
              <legend className="mb-1 text-sm font-semibold">Days</legend>
              {DAYS.map(([day, text]) => (
                <label
                  key={day}
                  className="inline-flex min-h-11 items-center gap-1 rounded-lg px-2 ring-1 ring-cream-300"
                >
                  <input
                    type="checkbox"
                    className="size-5"
                    checked={rule.days.includes(day)}
                    onChange={(e) =>
                      edit(
                        (l) =>
                          void (l.sessions[i]!.days = toggled(l.sessions[i]!.days as Day[], day, e.target.checked)),
                      )
                    }
                  />
                  {text}
                </label>
              ))}
            </fieldset>
            <Field
              label={`Opens (hours ${n})`}
              type="time"
              value={from}
              className="w-36"
              onChange={(v) => edit((l) => void (l.sessions[i]!.hours = joinWindow(v, to)))}
            />
            <Field
              label={`Closes (hours ${n})`}
              type="time"
              value={to}
              className="w-36"
              onChange={(v) => edit((l) => void (l.sessions[i]!.hours = joinWindow(from, v)))}
            />
            <RemoveButton what={`hours ${n}`} onClick={() => edit((l) => void l.sessions.splice(i, 1))} />
          </fieldset>
        );
      })}
      <AddButton
        onClick={() =>
          edit(
            (l) =>
              void l.sessions.push({
                slotType: slotTypes[0]?.slug ?? '',
                days: ['mon', 'tue', 'wed', 'thu', 'fri'],
                hours: '10:00-17:00',
              }),
          )
        }
      >
        Add opening hours
      </AddButton>

      <div className="grid gap-4 md:grid-cols-2">
        <div className="flex flex-col gap-2">
          <h3 className="font-semibold text-ink-900">Santa&apos;s breaks (every day)</h3>
          {breaks.map((b, i) => {
            const [from, to] = splitWindow(b);
            return (
              <div key={i} className="flex flex-wrap items-end gap-3">
                <Field
                  label={`Break ${i + 1} from`}
                  type="time"
                  value={from}
                  className="w-36"
                  onChange={(v) => edit((l) => void (l.breaks![i] = joinWindow(v, to)))}
                />
                <Field
                  label={`Break ${i + 1} to`}
                  type="time"
                  value={to}
                  className="w-36"
                  onChange={(v) => edit((l) => void (l.breaks![i] = joinWindow(from, v)))}
                />
                <RemoveButton what={`break ${i + 1}`} onClick={() => edit((l) => void l.breaks!.splice(i, 1))} />
              </div>
            );
          })}
          <AddButton onClick={() => edit((l) => void (l.breaks = [...(l.breaks ?? []), '13:00-13:30']))}>
            Add a break
          </AddButton>
        </div>
        <div className="flex flex-col gap-2">
          <h3 className="font-semibold text-ink-900">Closed dates</h3>
          {closed.map((d, i) => (
            <div key={i} className="flex flex-wrap items-end gap-3">
              <Field
                label={`Closed date ${i + 1}`}
                type="date"
                value={d}
                className="w-48"
                onChange={(v) => edit((l) => void (l.closedDates![i] = v))}
              />
              <RemoveButton
                what={`closed date ${i + 1}`}
                onClick={() => edit((l) => void l.closedDates!.splice(i, 1))}
              />
            </div>
          ))}
          <AddButton onClick={() => edit((l) => void (l.closedDates = [...(l.closedDates ?? []), l.seasonEnd]))}>
            Add a closed date
          </AddButton>
        </div>
      </div>
    </Section>
  );
}

function toggled(days: Day[], day: Day, on: boolean): Day[] {
  const set = new Set(days);
  if (on) set.add(day);
  else set.delete(day);
  return DAYS.map(([d]) => d).filter((d) => set.has(d));
}
