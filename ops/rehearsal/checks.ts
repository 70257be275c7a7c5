/** The rehearsal's findings: each check passes or says what it saw. */
export class Checks {
  private readonly results: { name: string; ok: boolean; detail: string }[] = [];

  check(name: string, ok: boolean, detail = ''): boolean {
    this.results.push({ name, ok, detail });
    console.log(`${ok ? '  ok  ' : '  FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
    return ok;
  }

  get failed(): number {
    return this.results.filter((r) => !r.ok).length;
  }

  /** The plain closing line CI reads ("N passed, N failed"). */
  summary(): string {
    return `rehearsal: ${this.results.length - this.failed} passed, ${this.failed} failed`;
  }
}

/** The first few items of a list, for a failure's message. */
export const some = (items: unknown[], n = 5) =>
  items.length === 0 ? 'none' : `${items.length}: ${JSON.stringify(items.slice(0, n))}${items.length > n ? ' …' : ''}`;
