import type { ReactNode } from 'react';
import type { SeasonFile } from './season-api';
import { AddButton, Field, freshSlug, PriceField, RemoveButton, Section, SlugField, TextArea } from './season-fields';

type Edit = (change: (file: SeasonFile) => void) => void;

/** Not in the file as last saved: its slug may still change. */
const isNew = (saved: { slug: string }[] | undefined, slug: string) => !(saved ?? []).some((i) => i.slug === slug);

/** One item of a list, its name as the legend: the fields inside need no name of their own. */
function Item({
  legend,
  children,
  slug,
  onRemove,
}: {
  legend: string;
  children: ReactNode;
  slug?: ReactNode;
  onRemove: () => void;
}) {
  return (
    <fieldset className="grid gap-3 rounded-lg p-3 ring-1 ring-cream-300 md:grid-cols-[1fr_11rem_auto]">
      <legend className="px-1 text-sm font-semibold text-ink-700">{legend}</legend>
      {slug && <div className="md:col-span-3">{slug}</div>}
      {children}
      <div className="md:col-span-3">
        <RemoveButton what={legend} onClick={onRemove} />
      </div>
    </fieldset>
  );
}

/**
 * Session types (their length), packages and add-ons (their prices), as the season file lists them.
 * `saved` is the file as last loaded or saved: only items new since then may change their slug.
 */
export function ProductsForm({ file, saved, edit }: { file: SeasonFile; saved: SeasonFile; edit: Edit }) {
  return (
    <>
      <Section
        title="Session types"
        actions={
          <AddButton
            onClick={() =>
              edit(
                (f) =>
                  void f.slotTypes.push({
                    slug: freshSlug('new-session-type', f.slotTypes),
                    name: 'New session type',
                    description: 'What families get.',
                    durationMinutes: 10,
                  }),
              )
            }
          >
            Add a session type
          </AddButton>
        }
      >
        {file.slotTypes.map((t, i) => (
          <Item
            key={t.slug}
            legend={`Session type ${t.slug}`}
            slug={
              isNew(saved.slotTypes, t.slug) && (
                <SlugField slug={t.slug} onChange={(v) => edit((f) => void (f.slotTypes[i]!.slug = v))} />
              )
            }
            onRemove={() => edit((f) => void f.slotTypes.splice(i, 1))}
          >
            <Field
              label="Name"
              value={t.name}
              maxLength={80}
              onChange={(v) => edit((f) => void (f.slotTypes[i]!.name = v))}
            />
            <Field
              label="Length (minutes)"
              type="number"
              min="5"
              value={String(t.durationMinutes)}
              onChange={(v) => edit((f) => void (f.slotTypes[i]!.durationMinutes = Number(v)))}
            />
            <label className="inline-flex min-h-11 items-center gap-2 self-end font-semibold">
              <input
                type="checkbox"
                className="size-5"
                checked={t.allowsPets ?? false}
                onChange={(e) => edit((f) => void (f.slotTypes[i]!.allowsPets = e.target.checked))}
              />
              Pets welcome
            </label>
            <div className="md:col-span-3">
              <TextArea
                label="Description"
                value={t.description}
                onChange={(v) => edit((f) => void (f.slotTypes[i]!.description = v))}
              />
            </div>
          </Item>
        ))}
      </Section>
      <PricedItems
        kind="Package"
        noun="a package"
        items={file.packages}
        saved={saved.packages}
        update={(change) => edit((f) => change(f.packages))}
      />
      <PricedItems
        kind="Add-on"
        noun="an add-on"
        items={file.addOns ?? []}
        saved={saved.addOns}
        update={(change) => edit((f) => change((f.addOns ??= [])))}
      />
    </>
  );
}

interface Priced {
  slug: string;
  name: string;
  description: string;
  priceCents: number;
}

/** Packages and add-ons alike: a name, a price and a description each. */
function PricedItems({
  kind,
  noun,
  items,
  saved,
  update,
}: {
  kind: string;
  noun: string;
  items: Priced[];
  saved: Priced[] | undefined;
  update: (change: (list: Priced[]) => void) => void;
}) {
  const slugBase = `new-${kind.toLowerCase()}`;
  return (
    <Section
      title={`${kind}s`}
      actions={
        <AddButton
          onClick={() =>
            update(
              (list) =>
                void list.push({
                  slug: freshSlug(slugBase, list),
                  name: `New ${kind.toLowerCase()}`,
                  description: 'What it includes.',
                  priceCents: 1000,
                }),
            )
          }
        >{`Add ${noun}`}</AddButton>
      }
    >
      {items.length === 0 && <p className="text-ink-700">None this season.</p>}
      {items.map((item, i) => (
        <Item
          key={item.slug}
          legend={`${kind} ${item.slug}`}
          slug={
            isNew(saved, item.slug) && (
              <SlugField slug={item.slug} onChange={(v) => update((list) => void (list[i]!.slug = v))} />
            )
          }
          onRemove={() => update((list) => void list.splice(i, 1))}
        >
          <Field
            label="Name"
            value={item.name}
            maxLength={80}
            onChange={(v) => update((list) => void (list[i]!.name = v))}
          />
          <PriceField
            label="Price ($)"
            cents={item.priceCents}
            onChange={(c) => update((list) => void (list[i]!.priceCents = c))}
          />
          <div className="md:col-span-3">
            <TextArea
              label="Description"
              value={item.description}
              onChange={(v) => update((list) => void (list[i]!.description = v))}
            />
          </div>
        </Item>
      ))}
    </Section>
  );
}
