import type { SeasonFile } from './season-api';
import { Field, PriceField, Section, TextArea } from './season-fields';

type Edit = (change: (file: SeasonFile) => void) => void;

/** Session types (their length), packages and add-ons (their prices), as the season file lists them. */
export function ProductsForm({ file, edit }: { file: SeasonFile; edit: Edit }) {
  return (
    <>
      <Section title="Session types">
        {file.slotTypes.map((t, i) => (
          <div key={t.slug} className="grid gap-3 border-t border-cream-300 pt-3 first:border-0 first:pt-0 md:grid-cols-[1fr_10rem_auto]">
            <Field label={`Name (${t.slug})`} value={t.name} maxLength={80} onChange={(v) => edit((f) => void (f.slotTypes[i]!.name = v))} />
            <Field
              label={`Session length, minutes (${t.slug})`}
              type="number"
              min="5"
              value={String(t.durationMinutes)}
              onChange={(v) => edit((f) => void (f.slotTypes[i]!.durationMinutes = Number(v)))}
            />
            <label className="inline-flex min-h-11 items-center gap-2 self-end font-semibold">
              <input type="checkbox" className="size-5" checked={t.allowsPets ?? false} onChange={(e) => edit((f) => void (f.slotTypes[i]!.allowsPets = e.target.checked))} />
              Pets welcome
            </label>
            <div className="md:col-span-3">
              <TextArea label={`Description (${t.slug})`} value={t.description} onChange={(v) => edit((f) => void (f.slotTypes[i]!.description = v))} />
            </div>
          </div>
        ))}
      </Section>
      <Section title="Packages">
        {file.packages.map((p, i) => (
          <div key={p.slug} className="grid gap-3 md:grid-cols-[1fr_10rem]">
            <Field label={`Package name (${p.slug})`} value={p.name} maxLength={80} onChange={(v) => edit((f) => void (f.packages[i]!.name = v))} />
            <PriceField label={`Price, $ (${p.slug})`} cents={p.priceCents} onChange={(c) => edit((f) => void (f.packages[i]!.priceCents = c))} />
          </div>
        ))}
      </Section>
      <Section title="Add-ons">
        {file.addOns?.length ? (
          file.addOns.map((a, i) => (
            <div key={a.slug} className="grid gap-3 md:grid-cols-[1fr_10rem]">
              <Field label={`Add-on name (${a.slug})`} value={a.name} maxLength={80} onChange={(v) => edit((f) => void (f.addOns![i]!.name = v))} />
              <PriceField label={`Price, $ (${a.slug})`} cents={a.priceCents} onChange={(c) => edit((f) => void (f.addOns![i]!.priceCents = c))} />
            </div>
          ))
        ) : (
          <p className="text-ink-700">No add-ons this season.</p>
        )}
      </Section>
    </>
  );
}
