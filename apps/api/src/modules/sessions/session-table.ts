/**
 * A session's hold as one table (decision 0089), as transition-table.ts is the booking's: each
 * named move with the hold states it may start from and the state it leads to. Every statement
 * that moves a hold row (holds.repository.ts, system-holds.repository.ts, the drop-day
 * statements) takes its from-states and its new status from here, so an UPDATE never touches a
 * row the table does not let move; the services ask `canMoveHold` first where they hold the row.
 *
 * The states are the reservation row's status; `free` is the state before a hold exists:
 * held (active), booked (checked out into a booking, its time running until it is paid),
 * released (let go), lapsed (its time ran out) and closed (ended by a closure, stored as
 * cancelled: the family's hold then answers why).
 */
export const HOLD_STATES = ['free', 'held', 'booked', 'released', 'lapsed', 'closed'] as const;
export type HoldState = (typeof HOLD_STATES)[number];

export type HoldStatus = 'active' | 'checked_out' | 'cancelled' | 'expired';

/** The status a state is stored as. */
export const STATUS_OF = {
  held: 'active',
  booked: 'checked_out',
  released: 'cancelled',
  lapsed: 'expired',
  closed: 'cancelled',
} as const satisfies Record<Exclude<HoldState, 'free'>, HoldStatus>;

interface Move {
  from: readonly HoldState[];
  /** null: the hold keeps its state (its time changes). */
  to: HoldState | null;
}

export const HOLD_MOVES = {
  /** A family takes a free session: the drop-day statements, the general path, a reschedule's hold. */
  takeHold: { from: ['free'], to: 'held' },
  /** The waitlist gives a free session to the first family waiting for its day (decision 0028). */
  offerFromWaitlist: { from: ['free'], to: 'held' },
  /** "I need more time": a live hold, or one being paid, runs longer. */
  refreshHold: { from: ['held', 'booked'], to: null },
  /** Checkout, or a reschedule's move, makes the hold a booking's. */
  checkOut: { from: ['held'], to: 'booked' },
  /** The family lets the session go; a lapsed hold let go is recorded as let go. */
  releaseHold: { from: ['held', 'lapsed'], to: 'released' },
  /** The family passes on its waitlist offer. */
  passOffer: { from: ['held'], to: 'released' },
  /** The hold's time ran out: the sweep job, or the family's next hold, marks it. */
  expireHold: { from: ['held'], to: 'lapsed' },
  /** A waitlist offer's time ran out. */
  lapseOffer: { from: ['held'], to: 'lapsed' },
  /** The checkout's time ran out unpaid. */
  lapseCheckout: { from: ['booked'], to: 'lapsed' },
  /** An unpaid checkout was cancelled: its hold ends with it. */
  cancelCheckout: { from: ['booked'], to: 'released' },
  /** A closure took the session out of sale (decision 0055): a live hold on it ends. */
  closeSession: { from: ['held'], to: 'closed' },
} as const satisfies Record<string, Move>;

export type HoldMove = keyof typeof HOLD_MOVES;

/** The state of a hold row (undefined: no hold). A cancelled row reads as released. */
export function holdStateOf(status: HoldStatus | undefined): HoldState {
  switch (status) {
    case undefined:
      return 'free';
    case 'active':
      return 'held';
    case 'checked_out':
      return 'booked';
    case 'cancelled':
      return 'released';
    case 'expired':
      return 'lapsed';
  }
}

export function canMoveHold(state: HoldState, move: HoldMove): boolean {
  return (HOLD_MOVES[move].from as readonly HoldState[]).includes(state);
}

/** The state after the move, or null when the table refuses it. */
export function nextHoldState(state: HoldState, move: HoldMove): HoldState | null {
  if (!canMoveHold(state, move)) return null;
  return HOLD_MOVES[move].to ?? state;
}

/** The statuses a move may start from, as SQL text: `('active', 'expired')`. */
export function statusesFrom(move: HoldMove): string {
  const from = (HOLD_MOVES[move].from as readonly HoldState[]).filter((s) => s !== 'free');
  return `(${[...new Set(from.map((s) => `'${STATUS_OF[s as Exclude<HoldState, 'free'>]}'`))].join(', ')})`;
}

/** The status a move writes (a move that keeps the state has none). */
export function statusAfter(move: Exclude<HoldMove, 'refreshHold'>): HoldStatus {
  return STATUS_OF[HOLD_MOVES[move].to];
}
