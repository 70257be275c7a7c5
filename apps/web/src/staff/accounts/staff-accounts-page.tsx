import type { StaffCatalogue } from '@kringle/contracts/staff';
import type { StaffAccount } from '@kringle/contracts/staff-accounts';
import type { StaffRole } from '@kringle/contracts/staff-roles';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { control, label, TextField } from '../parts/form-parts';
import { ActionOutcome } from '../parts/action-outcome';
import { LocationChoices } from '../parts/location-choices';
import { inviteAccount, listAccounts, ROLE_HINTS, ROLE_LABELS, updateAccount } from './staff-people-client';

const ROLES: StaffRole[] = ['set', 'support', 'manager'];
type Locations = StaffCatalogue['locations'];

/** The manager's Staff page (decision 0050): everyone's role, locations and state; invite; change; deactivate. */
export function StaffAccountsPage({ locations, myId }: { locations: Locations; myId: string }) {
  const [accounts, setAccounts] = useState<StaffAccount[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const load = useCallback(() => {
    listAccounts()
      .then(setAccounts)
      .catch((err: unknown) => setError(err instanceof Error ? err.message : 'The staff list could not be loaded.'));
  }, []);
  useEffect(load, [load]);

  const act = async (work: () => Promise<string>) => {
    setError(null);
    setNotice(null);
    try {
      setNotice(await work());
      load();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'That did not work. Please try again.');
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Staff</h1>
      <InviteForm
        locations={locations}
        onInvite={(body) => act(async () => `Invitation sent to ${(await inviteAccount(body)).email}.`)}
      />
      <ActionOutcome notice={notice} problem={error} />
      <section aria-labelledby="team-heading" className="flex flex-col gap-3">
        <h2 id="team-heading" className="text-xl font-semibold">
          The team
        </h2>
        {!accounts ? (
          <p className="text-ink-700">Loading…</p>
        ) : (
          <ul className="grid gap-3 lg:grid-cols-2">
            {accounts.map((a) => (
              <AccountCard
                key={a.id}
                account={a}
                locations={locations}
                mine={a.id === myId}
                onChange={(patch, done) => act(async () => (await updateAccount(a.id, patch), done))}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function RoleSelect({
  value,
  onChange,
  text,
}: {
  value: StaffRole;
  onChange: (role: StaffRole) => void;
  text: string;
}) {
  const id = useId();
  return (
    <div className={label}>
      <label htmlFor={id}>{text}</label>
      <select id={id} className={control} value={value} onChange={(e) => onChange(e.target.value as StaffRole)}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABELS[r]}: {ROLE_HINTS[r]}
          </option>
        ))}
      </select>
    </div>
  );
}

function InviteForm({
  locations,
  onInvite,
}: {
  locations: Locations;
  onInvite: (body: { email: string; role: StaffRole; locationIds: string[] }) => Promise<void>;
}) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('set');
  const [locationIds, setLocationIds] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    await onInvite({ email, role, locationIds });
    setBusy(false);
    setEmail('');
    setLocationIds([]);
  }
  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-labelledby="invite-heading"
      className="flex flex-col gap-4 rounded-2xl bg-cream-50 p-4 ring-1 ring-cream-300"
    >
      <h2 id="invite-heading" className="text-xl font-semibold">
        Invite someone
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField name="email" label="E-mail" type="email" value={email} onChange={setEmail} />
        <RoleSelect text="Role" value={role} onChange={setRole} />
      </div>
      <LocationChoices legend="Locations" locations={locations} chosen={locationIds} onChange={setLocationIds} />
      <Button type="submit" className="self-start" disabled={busy || !email}>
        {busy ? 'Sending…' : 'Send invitation'}
      </Button>
    </form>
  );
}

function AccountCard({
  account: a,
  locations,
  mine,
  onChange,
}: {
  account: StaffAccount;
  locations: Locations;
  mine: boolean;
  onChange: (
    patch: { role?: StaffRole; locationIds?: string[]; active?: boolean; resetMfa?: true },
    done: string,
  ) => Promise<void>;
}) {
  const [editing, setEditing] = useState(false);
  const [role, setRole] = useState(a.role);
  const [locationIds, setLocationIds] = useState(a.locationIds);
  const names = a.locationIds.length
    ? a.locationIds.map((id) => locations.find((l) => l.id === id)?.name ?? 'Unknown location').join(', ')
    : 'Every location';
  return (
    <li className="flex flex-col gap-2 rounded-2xl bg-cream-50 p-4 ring-1 ring-cream-300">
      <p className="break-all font-semibold">
        {a.email}
        {mine && ' (you)'}
      </p>
      <p className="text-sm text-ink-700">
        {ROLE_LABELS[a.role]} · {names}
      </p>
      <p className="text-sm text-ink-700">
        {!a.active
          ? 'Deactivated'
          : a.invitationPending
            ? 'Invitation not accepted yet'
            : a.lastSignInAt
              ? `Last signed in ${new Date(a.lastSignInAt).toLocaleString()}`
              : 'Never signed in'}
        {' · '}
        {a.mfaEnrolled ? 'Second step on' : 'No second step'}
      </p>
      {editing ? (
        <div className="flex flex-col gap-3">
          <RoleSelect text={`Role for ${a.email}`} value={role} onChange={setRole} />
          <LocationChoices
            legend={`Locations for ${a.email}`}
            locations={locations}
            chosen={locationIds}
            onChange={setLocationIds}
          />
          <div className="flex flex-wrap gap-2">
            <Button
              variant="confirm"
              onClick={() => void onChange({ role, locationIds }, `${a.email} updated.`).then(() => setEditing(false))}
            >
              Save
            </Button>
            <Button variant="ghost" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        !mine && (
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setEditing(true)} aria-label={`Change ${a.email}`}>
              Change
            </Button>
            <Button
              variant="secondary"
              aria-label={`${a.active ? 'Deactivate' : 'Reactivate'} ${a.email}`}
              onClick={() =>
                void onChange(
                  { active: !a.active },
                  a.active ? `${a.email} deactivated: signed out everywhere.` : `${a.email} reactivated.`,
                )
              }
            >
              {a.active ? 'Deactivate' : 'Reactivate'}
            </Button>
            {a.mfaEnrolled && (
              <Button
                variant="secondary"
                aria-label={`Reset the second step of ${a.email}`}
                onClick={() =>
                  void onChange(
                    { resetMfa: true },
                    `${a.email} signs in with the password and sets up a new second step.`,
                  )
                }
              >
                Reset second step
              </Button>
            )}
          </div>
        )
      )}
    </li>
  );
}
