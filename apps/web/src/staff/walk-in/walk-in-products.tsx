import { formatAud } from '@kringle/contracts/money';
import type { StaffCatalogue } from '@kringle/contracts/staff';
import { control, ErrorText } from '../parts/form-parts';

type Product = StaffCatalogue['addOns'][number];

/** A quantity for each package the session offers and each add-on. */
export function WalkInProducts({
  id,
  products,
  quantities,
  error,
  onChange,
}: {
  id: string;
  products: Product[];
  quantities: Record<string, number>;
  error: string | undefined;
  onChange: (quantities: Record<string, number>) => void;
}) {
  return (
    <fieldset
      data-field="packages"
      className="min-w-0 space-y-2 lg:col-span-2"
      aria-describedby={error ? `${id}-packages-error` : undefined}
    >
      <legend className="mb-2 text-xl font-semibold">Packages and add-ons</legend>
      {error && <ErrorText id={`${id}-packages-error`}>{error}</ErrorText>}
      <div className="grid gap-2 sm:grid-cols-2">
        {products.map((p) => (
          <label key={p.id} className="flex items-center justify-between gap-3 rounded-lg bg-cream-100 px-3 py-1">
            <span className="min-w-0">
              {p.name} <span className="text-ink-700">({formatAud(p.priceCents)})</span>
            </span>
            <select
              aria-label={`Quantity of ${p.name}`}
              className={`${control} shrink-0`}
              value={quantities[p.id] ?? 0}
              onChange={(e) => onChange({ ...quantities, [p.id]: Number(e.target.value) })}
            >
              {Array.from({ length: p.maxQuantity + 1 }, (_, n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
