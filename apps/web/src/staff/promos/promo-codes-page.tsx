import { formatAud } from '@kringle/contracts/money';
import type { PromoCode, PromoCodeBody } from '@kringle/contracts/promos';
import type { StaffCatalogue } from '@kringle/contracts/staff';
import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { ActionOutcome } from '../parts/action-outcome';
import { ScrollRegion } from '../parts/scroll-region';
import { changePromoCode, createPromoCode, listPromoCodes } from './promo-api';
import { fieldErrorsOf, PromoCodeForm, type FieldErrors } from './promo-code-form';

type Locations = StaffCatalogue['locations'];
const th = 'px-3 py-2 text-left font-semibold whitespace-nowrap';
const td = 'px-3 py-2 align-middle';

const discountOf = (p: PromoCode) => (p.kind === 'percent' ? `${p.value}%` : `${formatAud(p.value)} off`);
const dayOf = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', year: 'numeric', timeZone }).format(new Date(iso));
const whereOf = (p: PromoCode, locations: Locations) =>
  p.locationIds
    ? p.locationIds.map((id) => locations.find((l) => l.id === id)?.name ?? 'Another location').join(', ')
    : 'All locations';
const messageOf = (err: unknown, fallback: string) => (err instanceof ApiProblem ? err.message : fallback);

/**
 * The managers' promo codes (issue 52): every code with its rules and uses, a form to make one, and a
 * switch to turn each off and on. The server prices carts with them; nothing here works out a discount.
 */
export function PromoCodesPage({ locations, timezone }: { locations: Locations; timezone: string }) {
  const [codes, setCodes] = useState<PromoCode[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    listPromoCodes()
      .then(setCodes)
      .catch((err: unknown) => setProblem(messageOf(err, 'The promo codes could not be loaded.')));
  }, []);

  const create = async (body: PromoCodeBody): Promise<FieldErrors | null> => {
    setProblem(null);
    setNotice(null);
    try {
      const made = await createPromoCode(body);
      setCodes((old) => [made, ...(old ?? [])]);
      setNotice(`${made.code} created: families can use it from ${dayOf(made.validFrom, timezone)}.`);
      return null;
    } catch (err) {
      const errors = fieldErrorsOf(err);
      if (!errors) setProblem(messageOf(err, 'The code could not be created. Please try again.'));
      return errors ?? {};
    }
  };
  const toggle = async (p: PromoCode) => {
    setProblem(null);
    setNotice(null);
    try {
      const changed = await changePromoCode(p.id, { active: !p.active });
      setCodes((old) => old?.map((o) => (o.id === changed.id ? changed : o)) ?? null);
      setNotice(changed.active ? `${changed.code} is active again.` : `${changed.code} is switched off.`);
    } catch (err) {
      setProblem(messageOf(err, 'That did not work. Please try again.'));
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Promo codes</h1>
      <PromoCodeForm locations={locations} timezone={timezone} onCreate={create} />
      <ActionOutcome notice={notice} problem={problem} />
      <section aria-labelledby="promo-list-heading" className="flex flex-col gap-3">
        <h2 id="promo-list-heading" className="text-xl font-semibold">
          The codes
        </h2>
        {!codes ? (
          <p className="text-ink-700">Loading…</p>
        ) : codes.length === 0 ? (
          <p className="text-ink-700">No promo codes yet.</p>
        ) : (
          <ScrollRegion label="Promo codes table">
            <table className="w-full text-sm">
              <thead className="bg-cream-200">
                <tr>
                  {['Code', 'Discount', 'Valid', 'Where', 'Uses', 'Per family', 'Min spend', 'Status', ''].map(
                    (h, i) => (
                      <th key={h || i} scope="col" className={th}>
                        {h || <span className="sr-only">Change</span>}
                      </th>
                    ),
                  )}
                </tr>
              </thead>
              <tbody className="divide-y divide-cream-200">
                {codes.map((p) => (
                  <tr key={p.id} data-promo={p.code}>
                    <th scope="row" className={`${td} text-left font-mono font-semibold whitespace-nowrap`}>
                      {p.code}
                    </th>
                    <td className={`${td} whitespace-nowrap`}>{discountOf(p)}</td>
                    <td className={`${td} whitespace-nowrap`}>
                      {dayOf(p.validFrom, timezone)} to {dayOf(p.validTo, timezone)}
                    </td>
                    <td className={`${td} min-w-40`}>{whereOf(p, locations)}</td>
                    <td className={`${td} whitespace-nowrap tabular-nums`}>
                      {p.maxUses === null ? p.uses : `${p.uses} of ${p.maxUses}`}
                    </td>
                    <td className={`${td} tabular-nums`}>{p.maxUsesPerFamily}</td>
                    <td className={`${td} tabular-nums`}>{p.minSpendCents ? formatAud(p.minSpendCents) : 'None'}</td>
                    <td className={td}>{p.active ? 'Active' : 'Inactive'}</td>
                    <td className={`${td} py-1`}>
                      <Button
                        variant="secondary"
                        className="!px-3"
                        onClick={() => void toggle(p)}
                        aria-label={`${p.active ? 'Deactivate' : 'Activate'} ${p.code}`}
                      >
                        {p.active ? 'Deactivate' : 'Activate'}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </section>
    </div>
  );
}
