import type { StaffCatalogue } from '@kringle/contracts/staff';

/** Locations to tick; none ticked means every location (staff accounts, promo codes). */
export function LocationChoices({
  locations,
  chosen,
  onChange,
  legend,
}: {
  locations: StaffCatalogue['locations'];
  chosen: string[];
  onChange: (ids: string[]) => void;
  legend: string;
}) {
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="font-semibold">{legend}</legend>
      <p className="text-sm text-ink-700">None ticked: every location.</p>
      {locations.map((l) => (
        <label key={l.id} className="flex min-h-11 items-center gap-3">
          <input
            type="checkbox"
            className="size-5"
            checked={chosen.includes(l.id)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, l.id] : chosen.filter((id) => id !== l.id))}
          />
          {l.name}
        </label>
      ))}
    </fieldset>
  );
}
