/** Time source for every rule that depends on "now", so tests can move time deliberately. */
export interface Clock {
  now(): Date;
}

/**
 * Wall-clock time that never runs backwards (issue 36): it follows the system clock forwards, and
 * when the system clock is stepped back it carries on from where it was at the monotonic clock's
 * pace. Every window (rate limits, sign-in blocks) and every hold is measured on it, so a step of
 * −2 h no longer turns a 1-minute block into 3 hours or a 10-minute hold into 2 h 10 min. A step
 * forward is followed at once; the process only comes back to a wall clock stepped back again
 * once that clock catches up (or at restart).
 */
export class ForwardClock implements Clock {
  private anchorWall: number;
  private anchorMono: number;

  constructor(
    private readonly wall: () => number = Date.now,
    private readonly mono: () => number = () => performance.now(),
  ) {
    this.anchorWall = wall();
    this.anchorMono = mono();
  }

  now(): Date {
    const wall = this.wall();
    const mono = this.mono();
    const projected = this.anchorWall + (mono - this.anchorMono);
    if (wall >= projected) {
      this.anchorWall = wall;
      this.anchorMono = mono;
      return new Date(wall);
    }
    return new Date(projected);
  }
}

export const systemClock: Clock = new ForwardClock();

export class ManualClock implements Clock {
  constructor(private current: Date = new Date()) {}
  now(): Date {
    return new Date(this.current);
  }
  set(date: Date): void {
    this.current = new Date(date);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
