import { useMemo } from 'react';
import { useWizardSelector } from '../state/booking-hooks';
import type { Catalogue } from './cart-math';
import { useWizardAddOnsQuery, useWizardPackagesQuery } from './api';

/** Packages for the chosen location and type of visit, the location's add-ons, and both by id. */
export function useCatalogue() {
  const location = useWizardSelector((s) => s.booking.location);
  const slotType = useWizardSelector((s) => s.booking.slotType[0]);
  const locationId = location?.id ?? '';
  const packages = useWizardPackagesQuery(
    { locationId, slotTypeId: slotType?.id ?? '' },
    { skip: !location || !slotType },
  );
  const addOns = useWizardAddOnsQuery({ locationId }, { skip: !location });
  const catalogue: Catalogue = useMemo(
    () => new Map([...(packages.data ?? []), ...(addOns.data ?? [])].map((item) => [item.id, item])),
    [packages.data, addOns.data],
  );
  const refetch = () => Promise.all([packages.refetch(), addOns.refetch()]);
  return {
    packages: packages.data ?? [],
    addOns: addOns.data ?? [],
    catalogue,
    isLoading: packages.isLoading || addOns.isLoading,
    isError: packages.isError || addOns.isError,
    refetch,
  };
}
