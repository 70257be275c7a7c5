import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import type { Package } from '@kringle/contracts/catalogue';
import { formatAud } from '@kringle/contracts/money';
import type { CartItem } from '../state/booking-slice';
import { activeItems, type Catalogue, type CatalogueItem } from '../checkout/cart-math';
import { QuantityStepper } from '../checkout/quantity-stepper';

const Includes = ({ item }: { item: Package }) =>
  item.includes.length > 0 ? (
    <ul className="flex list-disc flex-col gap-0.5 pl-5 text-sm text-ink-700 marker:text-gold-500">
      {item.includes.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  ) : null;

/** The main package as one choice: a radio card per package (native radios, so arrows and Space work). */
export function MainPackageChoice({
  packages,
  mainId,
  disabled,
  onChoose,
}: {
  packages: Package[];
  mainId: string | null;
  disabled: boolean;
  onChoose: (item: Package) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-3" disabled={disabled}>
      <legend className="mb-3 text-xl font-semibold text-ink-900">Your photo package</legend>
      {packages.map((item) => {
        const chosen = item.id === mainId;
        return (
          <label
            key={item.id}
            data-testid={`item-${item.id}`}
            className={clsx(
              'relative flex cursor-pointer gap-3 rounded-2xl border-2 bg-cream-50 p-4 has-[:focus-visible]:outline ' +
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 ' +
                'has-[:focus-visible]:outline-festive-700',
              chosen ? 'border-festive-700 bg-festive-50 shadow-sm' : 'border-cream-300 hover:border-festive-600',
            )}
          >
            <input
              type="radio"
              name="main-package"
              value={item.id}
              checked={chosen}
              onChange={() => onChoose(item)}
              aria-label={`${item.name}, ${formatAud(item.priceCents)}`}
              aria-describedby={`about-${item.id}`}
              className="mt-1 size-5 shrink-0 accent-festive-700"
            />
            <span className="flex min-w-0 flex-1 flex-col gap-1">
              <span className="flex items-start justify-between gap-3">
                <span className="text-lg font-semibold text-ink-900">{item.name}</span>
                <span className="shrink-0 text-lg font-semibold tabular-nums text-ink-900">
                  {formatAud(item.priceCents)}
                </span>
              </span>
              <span id={`about-${item.id}`} className="text-ink-700">
                {item.description}
              </span>
              <Includes item={item} />
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}

/** Another package as an explicit addition (a second family, the grandparents): one toggle each. */
export function ExtraPackages({
  packages,
  quantityOf,
  canAdd,
  disabled,
  onToggle,
}: {
  packages: Package[];
  quantityOf: (id: string) => number;
  canAdd: (item: Package) => boolean;
  disabled: boolean;
  onToggle: (item: Package, add: boolean) => void;
}) {
  return (
    <ul className="flex flex-col gap-2">
      {packages.map((item) => {
        const added = quantityOf(item.id) > 0;
        return (
          <li
            key={item.id}
            data-testid={`extra-${item.id}`}
            className={clsx(
              'flex flex-wrap items-center justify-between gap-3 rounded-2xl border-2 bg-cream-50 p-3',
              added ? 'border-festive-700' : 'border-cream-300',
            )}
          >
            <span className="min-w-0">
              <span className="block font-semibold text-ink-900">{item.name}</span>
              <span className="text-sm text-ink-700">
                {formatAud(item.priceCents)}
                {added && quantityOf(item.id) > 1 ? ` × ${quantityOf(item.id)}` : ''}
              </span>
            </span>
            <button
              type="button"
              aria-pressed={added}
              disabled={disabled || (!added && !canAdd(item))}
              onClick={() => onToggle(item, !added)}
              className={clsx(
                'min-h-11 rounded-xl px-4 font-semibold disabled:cursor-not-allowed disabled:opacity-40',
                added
                  ? 'border border-cream-300 text-ink-900 hover:border-festive-700'
                  : 'bg-pine-700 text-cream-50 hover:bg-pine-800',
              )}
            >
              {added ? `Remove ${item.name}` : `Add ${item.name}`}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** An add-on with its stepper and line total: the only lines with a quantity to set. */
export function AddOnRow({
  item,
  quantity,
  max,
  disabled,
  onChange,
}: {
  item: CatalogueItem;
  quantity: number;
  max: number;
  disabled: boolean;
  onChange: (q: number) => void;
}) {
  return (
    <li
      data-testid={`item-${item.id}`}
      className={clsx(
        'flex flex-col gap-3 rounded-2xl border-2 bg-cream-50 p-4',
        quantity > 0 ? 'border-festive-700' : 'border-cream-300',
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h4 className="text-lg font-semibold text-ink-900">{item.name}</h4>
          <p className="text-ink-700">{item.description}</p>
        </div>
        <p className="shrink-0 text-lg font-semibold tabular-nums text-ink-900">{formatAud(item.priceCents)}</p>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <QuantityStepper name={item.name} quantity={quantity} max={max} disabled={disabled} onChange={onChange} />
        <p className="text-sm text-ink-600" aria-live="polite">
          {quantity > 0 ? (
            <>
              {quantity} × {formatAud(item.priceCents)} ={' '}
              <span className="font-semibold tabular-nums text-ink-900">{formatAud(item.priceCents * quantity)}</span>
            </>
          ) : (
            'Not added'
          )}
        </p>
      </div>
    </li>
  );
}

/** The running order beside the choices on wide screens. */
export function OrderSummary({
  packages,
  catalogue,
  total,
  action,
}: {
  packages: Record<string, CartItem>;
  catalogue: Catalogue;
  total: number;
  action: ReactNode;
}) {
  const lines = activeItems(packages);
  return (
    <aside
      aria-labelledby="order-summary-heading"
      data-testid="order-summary"
      className="flex flex-col gap-3 rounded-2xl border border-cream-300 bg-cream-50 p-5 shadow-sm"
    >
      <h3 id="order-summary-heading" className="text-lg font-semibold text-ink-900">
        Your order
      </h3>
      {lines.length === 0 ? (
        <p className="text-ink-600">Nothing chosen yet. Start with a photo package.</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {lines.map((line) => (
            <li key={line._id} className="flex items-baseline justify-between gap-3 text-ink-800">
              <span className="min-w-0">
                {line.totalQuantity > 1 && <span className="tabular-nums">{line.totalQuantity} × </span>}
                {catalogue.get(line._id)?.name ?? 'Item'}
              </span>
              <span className="shrink-0 tabular-nums">{formatAud(line.totalPrice)}</span>
            </li>
          ))}
        </ul>
      )}
      <p className="flex items-baseline justify-between gap-3 border-t border-cream-300 pt-3">
        <span className="text-ink-700">Total (incl. GST)</span>
        <span className="text-xl font-semibold tabular-nums text-ink-900">{formatAud(total)}</span>
      </p>
      {action}
    </aside>
  );
}
