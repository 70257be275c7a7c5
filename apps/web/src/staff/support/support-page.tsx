import { formatSessionTime } from '@kringle/contracts/dates';
import type { FamilySearchResult } from '@kringle/contracts/support';
import { SEARCH_MIN } from '@kringle/contracts/support';
import { useEffect, useId, useState } from 'react';
import { ApiProblem } from '../../lib/api-error';
import { AttendanceTag, familyName } from '../parts/booking-card';
import { input, label } from '../parts/form-parts';
import { SupportBookingPanel } from './support-booking';
import { searchFamilies } from './support-api';

const DEBOUNCE_MS = 250;

/** The booking open on the page, kept in the address so a reload or a shared link comes back to it. */
const bookingInUrl = () => new URLSearchParams(window.location.search).get('booking');

/**
 * The support desk (issue 34): one search box, results as staff type (debounced, the previous
 * request aborted), and the chosen booking with everything the team can do for the family.
 */
export function SupportPage() {
  const [q, setQ] = useState('');
  /** The last answer with the words it answers: shown only while the box still says them. */
  const [answer, setAnswer] = useState<{ term: string; result: FamilySearchResult } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  const [bookingId, setBookingId] = useState<string | null>(bookingInUrl);
  const searchId = useId();

  useEffect(() => {
    const term = q.trim();
    if (term.length < SEARCH_MIN) return;
    const abort = new AbortController();
    const timer = window.setTimeout(() => {
      setSearching(true);
      searchFamilies(term, abort.signal)
        .then((r) => {
          setAnswer({ term, result: r });
          setProblem(null);
        })
        .catch((err: unknown) => {
          if (!abort.signal.aborted)
            setProblem(err instanceof ApiProblem ? err.message : 'The search failed. Please try again.');
        })
        .finally(() => {
          if (!abort.signal.aborted) setSearching(false);
        });
    }, DEBOUNCE_MS);
    return () => {
      abort.abort();
      window.clearTimeout(timer);
    };
  }, [q]);

  useEffect(() => {
    const onPop = () => setBookingId(bookingInUrl());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const open = (id: string | null) => {
    window.history.pushState(null, '', id ? `/staff/support?booking=${id}` : '/staff/support');
    setBookingId(id);
  };

  if (bookingId) {
    return (
      <div className="flex flex-col gap-4">
        <button
          type="button"
          className="self-start font-semibold text-festive-800 underline min-h-11"
          onClick={() => open(null)}
        >
          ← Back to the search
        </button>
        <SupportBookingPanel bookingId={bookingId} />
      </div>
    );
  }

  const term = q.trim();
  const result = term.length >= SEARCH_MIN && answer?.term === term ? answer.result : null;
  const count = result?.items.length ?? 0;
  return (
    <section aria-labelledby={`${searchId}-h`} className="flex flex-col gap-4">
      <h1 id={`${searchId}-h`} className="font-display text-2xl font-semibold">
        Support desk
      </h1>
      <div className={label}>
        <label htmlFor={searchId}>Find a family</label>
        <input
          id={searchId}
          type="search"
          className={input}
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder="Name, e-mail, phone, reference or check-in code"
          autoComplete="off"
          aria-describedby={`${searchId}-status`}
        />
      </div>
      <p id={`${searchId}-status`} role="status" className="text-sm text-ink-700">
        {problem ??
          (term.length < SEARCH_MIN
            ? `Type at least ${SEARCH_MIN} characters.`
            : searching || !result
              ? 'Searching…'
              : result
                ? `${count} ${count === 1 ? 'family' : 'families'} found${
                    count === 20 ? ' (the first 20: type more ' + 'to narrow it)' : ''
                  }.`
                : '')}
      </p>
      <ul className="flex flex-col gap-3" aria-label="Families found">
        {result?.items.map(({ user, bookings }) => (
          <li key={user.id} className="rounded-xl border border-cream-300 bg-cream-50 p-4">
            <h2 className="text-lg font-semibold">
              {familyName({ firstName: user.firstName, lastName: user.lastName, email: user.email }).fullname ||
                user.email}
            </h2>
            <p className="text-sm text-ink-700 break-all">
              {user.email}
              {user.phone ? ` · ${user.phone}` : ''}
            </p>
            {bookings.length === 0 ? (
              <p className="mt-2 text-sm">No bookings.</p>
            ) : (
              <ul className="mt-2 flex flex-col gap-2">
                {bookings.map((b) => (
                  <li key={b.id}>
                    <a
                      href={`/staff/support?booking=${b.id}`}
                      onClick={(e) => {
                        e.preventDefault();
                        open(b.id);
                      }}
                      className={
                        'flex min-h-11 flex-wrap items-center gap-x-3 gap-y-1 rounded-lg px-2 py-1 ' +
                        'hover:bg-cream-200'
                      }
                    >
                      <span className="font-mono font-semibold text-festive-800 underline">{b.reference}</span>
                      <span>{formatSessionTime(b.slot.startAt, b.location.timezone)}</span>
                      <span className="text-ink-700">{b.location.name}</span>
                      <AttendanceTag attendance={b.attendance} />
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
