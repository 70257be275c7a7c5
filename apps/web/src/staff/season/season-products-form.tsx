import type { ReactNode } from 'react';
import type { SeasonFile } from './season-api';
import { Field, PriceField, Section, TextArea } from './season-fields';

type Edit = (change: (file: SeasonFile) => void) => void;

/** One item of a list, its name as the legend: the fields inside need no name of their own. */
function Item({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="grid gap-3 rounded-lg p-3 ring-1 ring-cream-300 md:grid-cols-[1fr_11rem_auto]">
      <legend className="px-1 text-sm font-semibold text-ink-700">{legend}</legend>
      {children}
    </fieldset>
  );
}

/** Session types (their length), packages and add-ons (their prices), as the season file lists them. */
export function ProductsForm({ file, edit }: { file: SeasonFile; edit: Edit }) {
  return (
    <>
      <Section title="Session types">
        {file.slotTypes.map((t, i) => (
          <Item key={t.slug} legend={`Session type ${t.slug}`}>
            <Field label="Name" value={t.name} maxLength={80} onChange={(v) => edit((f) => void (f.slotTypes[i]!.name = v))} />
            <Field label="Length (minutes)" type="number" min="5" value={String(t.durationMinutes)} onChange={(v) => edit((f) => void (f.slotTypes[i]!.durationMinutes = Number(v)))} />
            <label className="inline-flex min-h-11 items-center gap-2 self-end font-semibold">
              <input type="checkbox" className="size-5" checked={t.allowsPets ?? false} onChange={(e) => edit((f) => void (f.slotTypes[i]!.allowsPets = e.target.checked))} />
              Pets welcome
            </label>
            <div className="md:col-span-3">
              <TextArea label="Description" value={t.description} onChange={(v) => edit((f) => void (f.slotTypes[i]!.description = v))} />
            </div>
          </Item>
        ))}
      </Section>
      <Section title="Packages">
        {file.packages.map((p, i) => (
          <Item key={p.slug} legend={`Package ${p.slug}`}>
            <Field label="Name" value={p.name} maxLength={80} onChange={(v) => edit((f) => void (f.packages[i]!.name = v))} />
            <PriceField label="Price ($)" cents={p.priceCents} onChange={(c) => edit((f) => void (f.packages[i]!.priceCents = c))} />
          </Item>
        ))}
      </Section>
      <Section title="Add-ons">
        {file.addOns?.length ? (
          file.addOns.map((a, i) => (
            <Item key={a.slug} legend={`Add-on ${a.slug}`}>
              <Field label="Name" value={a.name} maxLength={80} onChange={(v) => edit((f) => void (f.addOns![i]!.name = v))} />
              <PriceField label="Price ($)" cents={a.priceCents} onChange={(c) => edit((f) => void (f.addOns![i]!.priceCents = c))} />
            </Item>
          ))
        ) : (
          <p className="text-ink-700">No add-ons this season.</p>
        )}
      </Section>
    </>
  );
}
