import { useEffect, useRef, useState } from 'react';
import type { BookingDetails } from '@kringle/contracts/booking-details';
import { Link, useNavigate, useParams } from 'react-router';
import { formatSessionTime } from '@kringle/contracts/dates';
import type { QueueTicket, QueueWants } from '@kringle/contracts/queue';
import { Button, buttonClasses } from '../../../components/ui/button';
import { useGetQueueTicketQuery, useJoinQueueMutation } from '../../../lib/queue-api';
import { serverNow } from '../../../lib/server-clock';
import { useGetLocationsQuery } from '../api';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { nextStep, setDetails, setLocation, setQueueChoicesFor } from '../state/booking-slice';
import { useWizardPackagesQuery } from '../checkout/api';
import { AdmissionNotice } from './queue-admission';
import { QueueChoices } from './queue-choices';
import { ChoicesSummary } from './queue-choices-summary';
import { takeQueueHold } from './queue-hold-actions';
import { useQueueLiveQuery } from './queue-live';
import { openingCountdown } from './sales-opening';

/** How often the ticket is read again while the live stream is down (the server's answer, never a local guess). */
const POLL_MS = 2000;
/** With the stream open, an occasional read still covers an event missed. */
const LIVE_POLL_MS = 15_000;

function waitText(ticket: QueueTicket): string {
  if (ticket.estimatedWaitSeconds === null) return 'We will show an estimate once families start going in.';
  const minutes = Math.round(ticket.estimatedWaitSeconds / 60);
  return minutes < 1
    ? 'About a minute or less, at the pace families are going in now.'
    : `About ${minutes} minute${minutes === 1 ? '' : 's'}, at the pace families are going in now.`;
}

function Countdown({ opensAt }: { opensAt: string }) {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const tick = setInterval(() => setNow(serverNow()), 1000);
    return () => clearInterval(tick);
  }, []);
  return (
    <p aria-hidden="true" className="text-3xl font-semibold tabular-nums" data-testid="queue-countdown">
      {openingCountdown(Date.parse(opensAt) - now)}
    </p>
  );
}

/**
 * The waiting room of a location whose bookings open at a set time (issue 40, decision 0053): one
 * tap to join, a countdown on the server's clock, then the place in the line read from the server,
 * and at admission the time the family has to choose, counting down.
 * Leaving and coming back keeps the place (the server keeps it per account).
 */
export function QueuePage() {
  const { locationId = '' } = useParams();
  const navigate = useNavigate();
  const dispatch = useWizardDispatch();
  const { data: locations } = useGetLocationsQuery();
  const location = locations?.find((l) => l.id === locationId);
  const [joined, setJoined] = useState(false);
  const [join, joining] = useJoinQueueMutation();
  const [inLine, setInLine] = useState(false);
  // A rejoin is allowed once: asked, and still lapsed once the answer is in, it was refused.
  const [rejoinAsked, setRejoinAsked] = useState(false);
  // Live (server-sent events) once in the line; polling is the fallback while the stream is down.
  const live = useQueueLiveQuery(locationId, { skip: !inLine }).data?.live ?? false;
  const ticketQuery = useGetQueueTicketQuery(locationId, {
    pollingInterval: live ? LIVE_POLL_MS : POLL_MS,
    skipPollingIfUnfocused: false,
  });
  const ticket = ticketQuery.data;
  if (ticket && !inLine) setInLine(true);
  const notInLine = ticketQuery.isError && !ticket;
  const rejoinRefused = rejoinAsked && !joining.isLoading && joining.data?.status === 'lapsed';
  const [editing, setEditing] = useState(false);
  const wants = ticket?.wants ?? null;
  const wantedPackages = useWizardPackagesQuery(
    { locationId, slotTypeId: wants?.slotTypeId ?? '' },
    { skip: !wants },
  ).data;
  const canChoose = ticket?.status === 'before_open' || ticket?.status === 'waiting';
  const saveChoices = async (chosen: QueueWants, details: BookingDetails) => {
    dispatch(setDetails(details));
    dispatch(setQueueChoicesFor(locationId));
    const saved = await join({ locationId, wants: chosen });
    if ('error' in saved) return false;
    setEditing(false);
    return true;
  };

  // The turn came with the chosen session held (issue 55): into the wizard with it, once. (A hold the
  // family took itself in the wizard, with no choices saved, is the wizard's own.)
  const held = ticket?.status === 'admitted' && ticket.wants ? ticket.reservation : null;
  const taking = useRef(false);
  const wizardHold = useWizardSelector((s) => s.booking.reservationData?.holdId ?? null);
  useEffect(() => {
    if (!held || !wants || !location || !wantedPackages || taking.current) return;
    taking.current = true;
    // Back on this page with that hold in the wizard already (from Payment, say): the wizard as it is.
    if (wizardHold === held.id) return void navigate('/create-booking');
    void dispatch(takeQueueHold({ location, reservation: held, wants, packages: wantedPackages })).then(() =>
      navigate('/create-booking'),
    );
  }, [held, wants, location, wantedPackages, wizardHold, dispatch, navigate]);

  // Admitted: told so, with the time it has (issue 53 item 10), then into the wizard at this centre
  // on its own tap; the hold is the server's to allow.
  const chooseSession = () => {
    if (!location) return;
    dispatch(setLocation(location));
    dispatch(nextStep());
    void navigate('/create-booking');
  };

  const name = location?.name ?? 'this centre';
  const opens = ticket?.opensAt ?? location?.salesOpenAt ?? null;

  return (
    <section className="mx-auto flex max-w-xl flex-col gap-4 p-4" aria-labelledby="queue-title">
      <h1 id="queue-title" className="text-2xl font-semibold text-ink-900">
        Waiting room: {name}
      </h1>
      {opens && location && (
        <p className="text-ink-700">Bookings open {formatSessionTime(opens, location.timezone)}.</p>
      )}
      <div className="rounded-2xl border border-cream-300 bg-cream-50 p-4 text-ink-900">
        <h2 className="font-semibold">How it works</h2>
        <ul className="mt-2 list-disc pl-5 text-sm text-ink-700">
          <li>
            Everyone who joins before the opening gets a place drawn at random at the opening moment: arriving early or
            late before then makes no difference.
          </li>
          <li>Families who join after the opening go to the back of the line.</li>
          <li>
            We let families in while there are sessions left. When it is your turn we tell you here, and you have a few
            minutes to choose a session.
          </li>
          <li>
            While you wait, you can choose your session type, day, time of day and package. At your turn we hold the
            first free session that matches and take you straight to payment.
          </li>
          <li>
            You can close this page and come back: your place is kept for your account. Once bookings open, keep this
            page open or come back within 5 minutes, or your place passes to the next family (you may rejoin at the back
            once).
          </li>
        </ul>
        <p className="mt-2 text-sm">
          <Link className="font-medium text-festive-700 underline" to={`/drop-report/${locationId}`}>
            The draw and how the opening went
          </Link>
          , published for anyone once places are drawn.
        </p>
      </div>

      {notInLine && !joined && (
        <Button
          className="w-full sm:w-auto"
          disabled={joining.isLoading}
          onClick={() => {
            setJoined(true);
            void join({ locationId });
          }}
        >
          Join the line
        </Button>
      )}
      {joining.isError && <p role="alert">We could not add you to the line. Please try again.</p>}

      {ticket && (
        <div
          className="flex flex-col gap-2 rounded-2xl border border-gold-400 bg-gold-300/25 p-4 text-ink-900"
          data-testid="queue-ticket"
          data-status={ticket.status}
        >
          {ticket.status === 'before_open' && (
            <>
              <p role="status" className="font-semibold">
                You are in the line. Places are drawn when bookings open.
              </p>
              <Countdown opensAt={ticket.opensAt} />
            </>
          )}
          {ticket.status === 'waiting' && (
            <>
              <p role="status" className="font-semibold">
                Your place in line: {ticket.position}
              </p>
              <p>
                {ticket.ahead === 0
                  ? 'You are next.'
                  : `${ticket.ahead} ${ticket.ahead === 1 ? 'family is' : 'families are'} ahead of you.`}
              </p>
              <p className="text-sm text-ink-700">{waitText(ticket)}</p>
            </>
          )}
          {held && (
            <p role="status" className="font-semibold">
              It&apos;s your turn! We are holding your session and taking you to payment…
            </p>
          )}
          {ticket.status === 'admitted' && !held && ticket.admittedUntil && (
            <>
              <AdmissionNotice
                admittedUntil={ticket.admittedUntil}
                timezone={location?.timezone ?? 'Australia/Sydney'}
                centre={name}
              />
              <Button className="w-full sm:w-fit" disabled={!location} onClick={chooseSession}>
                Choose a session
              </Button>
            </>
          )}
          {canChoose && wants && !editing && location && wantedPackages && (
            <ChoicesSummary
              location={location}
              wants={wants}
              packages={wantedPackages}
              onChange={() => setEditing(true)}
            />
          )}
          {ticket.status === 'sold_out' && (
            <>
              <p role="status" className="font-semibold">
                Sold out for now
              </p>
              <p className="text-sm text-ink-700">
                Every session is taken or held. If a family lets one go, we let the next in line in: keep this page
                open. Or join the waitlist for a day.
              </p>
              <Link
                className={buttonClasses('secondary', 'w-fit')}
                to="/create-booking"
                onClick={() => location && dispatch(setLocation(location))}
              >
                Join the waitlist
              </Link>
            </>
          )}
          {ticket.status === 'lapsed' && (
            <>
              <p role="status" className="font-semibold">
                Your place has passed to the next family
              </p>
              <p className="text-sm text-ink-700">
                We did not hear from this page for more than 5 minutes after bookings opened, so we let the families
                behind you go ahead.
              </p>
              {rejoinRefused ? (
                <p className="text-sm text-ink-700">You have already rejoined this line once, so you cannot again.</p>
              ) : (
                <Button
                  className="w-full sm:w-fit"
                  disabled={joining.isLoading}
                  onClick={() => {
                    setRejoinAsked(true);
                    void join({ locationId });
                  }}
                >
                  Rejoin at the back of the line
                </Button>
              )}
            </>
          )}
          {ticket.status === 'closed' && (
            <>
              <p role="status" className="font-semibold">
                This waiting room has closed.
              </p>
              <Link className={buttonClasses('secondary', 'w-fit')} to="/create-booking">
                Book a session
              </Link>
            </>
          )}
        </div>
      )}
      {ticket && canChoose && location && (!wants || editing) && (
        <QueueChoices location={location} saved={wants} onSave={saveChoices} />
      )}
    </section>
  );
}
