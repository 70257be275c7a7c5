import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import type { AddOn, Package } from '@kringle/contracts/catalogue';
import { centsToDollars, formatAud } from '@kringle/contracts/money';
import { Button } from '../../components/ui/button';
import { CheckIcon } from '../../components/ui/icons';
import { track } from '../../lib/analytics';
import { useListAddOnsQuery, useListPackagesQuery } from './api';

/** package_view once per visit, and view_item with the AUD value and items on show. */
function useCatalogueAnalytics(packages: Package[] | undefined) {
  const sent = useRef(false);
  useEffect(() => {
    if (!packages || sent.current) return;
    sent.current = true;
    track('package_view', { count: packages.length });
    track('view_item', {
      currency: 'AUD',
      value: centsToDollars(Math.min(...packages.map((p) => p.priceCents))),
      items: packages.map((p) => ({
        item_id: p.id,
        item_name: p.name,
        item_category: p.type,
        price: centsToDollars(p.priceCents),
        quantity: 1,
      })),
    });
  }, [packages]);
}

function PackageCard({ item }: { item: Package }) {
  return (
    <li className="flex flex-col gap-3 rounded-2xl border border-cream-300 bg-cream-50 p-5 shadow-sm">
      <div className="flex items-start justify-between gap-3">
        <h3 className="text-xl font-semibold text-ink-900">{item.name}</h3>
        <p className="shrink-0 text-xl font-bold text-festive-700">{formatAud(item.priceCents)}</p>
      </div>
      <p className="leading-relaxed text-ink-700">{item.description}</p>
      <div>
        <h4 className="sr-only">Includes</h4>
        <ul className="flex flex-col gap-1.5">
          {item.includes.map((line) => (
            <li key={line} className="flex items-start gap-2 text-ink-900">
              <CheckIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-pine-700" />
              <span>{line}</span>
            </li>
          ))}
        </ul>
      </div>
    </li>
  );
}

function AddOnRow({ item }: { item: AddOn }) {
  return (
    <li className="flex items-start justify-between gap-4 py-3">
      <div className="min-w-0">
        <p className="font-semibold text-ink-900">{item.name}</p>
        <p className="text-sm leading-relaxed text-ink-700">{item.description}</p>
      </div>
      <p className="shrink-0 font-semibold text-ink-900">{formatAud(item.priceCents)}</p>
    </li>
  );
}

/** /packages (View Packages): what each package includes and costs, the add-ons, and Book now. */
export function PackagesPage() {
  const navigate = useNavigate();
  const packages = useListPackagesQuery();
  const addOns = useListAddOnsQuery();
  useCatalogueAnalytics(packages.data);

  const bookNow = () => {
    track('book_now', { from: 'packages' });
    navigate('/create-booking');
  };

  return (
    <section className="mx-auto flex w-full max-w-4xl flex-col gap-8 px-4 py-8 sm:px-8 sm:py-12">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-2">
          <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">Photo packages</h1>
          <p className="max-w-xl leading-relaxed text-ink-700">
            Every visit includes time with Santa. You choose your package after picking a session, and you can add
            extras. Prices are in Australian dollars and include GST.
          </p>
        </div>
        <Button onClick={bookNow} className="w-full shrink-0 sm:w-auto sm:min-w-40">
          Book now
        </Button>
      </header>

      <section aria-labelledby="packages-heading" className="flex flex-col gap-4">
        <h2 id="packages-heading" className="text-2xl font-semibold text-ink-900">
          Packages
        </h2>
        {packages.isLoading && <p role="status">Loading packages…</p>}
        {packages.isError && (
          <p role="alert" className="text-festive-800">
            We couldn't load the packages. Please try again in a moment.
          </p>
        )}
        {packages.data && (
          <ul className="grid gap-4 md:grid-cols-2">
            {packages.data.map((item) => (
              <PackageCard key={item.id} item={item} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="addons-heading" className="flex flex-col gap-2">
        <h2 id="addons-heading" className="text-2xl font-semibold text-ink-900">
          Add-ons
        </h2>
        <p className="text-ink-700">Little extras to add to any package.</p>
        {addOns.data && (
          <ul className="divide-y divide-cream-300 rounded-2xl border border-cream-300 bg-cream-50 px-5">
            {addOns.data.map((item) => (
              <AddOnRow key={item.id} item={item} />
            ))}
          </ul>
        )}
      </section>

      <div className="flex flex-col items-center gap-3 rounded-2xl bg-pine-700 px-6 py-8 text-center text-cream-50">
        <p className="font-display text-2xl font-semibold">Ready to see Santa?</p>
        <p className="max-w-md text-cream-100">
          Pick a centre and a time that suits your family. We hold your session while you choose.
        </p>
        <Button variant="secondary" onClick={bookNow} className="mt-1 w-full sm:w-auto sm:min-w-40">
          Book now
        </Button>
      </div>
    </section>
  );
}
