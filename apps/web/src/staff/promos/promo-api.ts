import type { PromoCode, PromoCodeBody, PromoCodePatch } from '@kringle/contracts/promos';
import { postJson, requestJson } from '../session/staff-client';

/** The managers' promo code calls (API.md "Gift vouchers, promo codes, credit, donations"). */
export const listPromoCodes = async () => (await requestJson<{ items: PromoCode[] }>('/staff/promo-codes')).items;
export const createPromoCode = (body: PromoCodeBody) => postJson<PromoCode>('/staff/promo-codes', body);
export const changePromoCode = (id: string, patch: PromoCodePatch) =>
  requestJson<PromoCode>(`/staff/promo-codes/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: JSON.stringify(patch),
  });
