import type {
  MfaConfirmResponse,
  MfaSetupResponse,
  StaffAccount,
  StaffMe,
  UpdateStaffAccount,
} from '@kringle/contracts/staff-accounts';
import type { StaffRole } from '@kringle/contracts/staff-roles';
import { postJson, publicPostJson, requestJson } from '../session/staff-client';

/** The staff accounts and second-factor calls of the staff app (decision 0050). */
export const getMe = () => requestJson<StaffMe>('/staff/me');
export const startMfaSetup = () => postJson<MfaSetupResponse>('/staff/mfa/setup', {});
export const confirmMfa = (code: string) => postJson<MfaConfirmResponse>('/staff/mfa/confirm', { code });
export const listAccounts = async () => (await requestJson<{ items: StaffAccount[] }>('/staff/accounts')).items;
export const inviteAccount = (body: { email: string; role: StaffRole; locationIds: string[] }) =>
  postJson<StaffAccount>('/staff/accounts', body);
export const updateAccount = (id: string, patch: UpdateStaffAccount) =>
  requestJson<StaffAccount>(`/staff/accounts/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: JSON.stringify(patch),
  });
export const acceptInvitation = (code: string, password: string) =>
  publicPostJson<{ message: string }>('/staff/invitations/accept', { code, password });

export const ROLE_LABELS: Record<StaffRole, string> = { manager: 'Manager', support: 'Support', set: 'Set' };
export const ROLE_HINTS: Record<StaffRole, string> = {
  manager: 'Everything, staff accounts included',
  support: 'Finds families and acts for them',
  set: 'Run sheet, check-in, walk-ins',
};
