import { createHash } from 'node:crypto';
import type { PublicCatalogue } from '@kringle/contracts/public-catalogue';
import type { DbOrTx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { listLocations } from './catalogue.repository';
import { bookableTypes, liveSeasonVersion } from './public-catalogue.repository';

export interface BuiltCatalogue {
  body: PublicCatalogue;
  etag: string;
  /** The live season version it was built from. */
  version: number;
  /** When a session type in it runs out of sessions (its last start): built again then. */
  validUntil: number;
}

/**
 * The visitor's catalogue (GET /common/catalogue), built once per season version: every visitor
 * to /register and /login asks for it, and it changes only when the season does. Each process
 * asks PostgreSQL for the live version at most every `recheckMs` (a season saved by another
 * process or the CLI shows within that), and builds again when it moved or a session type ran
 * out of sessions. One build at a time, however many visitors arrive together.
 */
export class PublicCatalogueCache {
  private built: BuiltCatalogue | null = null;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private pending: Promise<BuiltCatalogue> | null = null;

  constructor(
    private readonly db: DbOrTx,
    private readonly clock: Clock,
    private readonly recheckMs = 5_000,
  ) {}

  async get(): Promise<BuiltCatalogue> {
    const now = this.clock.now().getTime();
    if (this.built && now < this.built.validUntil && now - this.checkedAt < this.recheckMs) return this.built;
    this.pending ??= this.refresh(now).finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  /** Forgets the built answer (this process saved a season): the next read builds again. */
  invalidate(): void {
    this.built = null;
  }

  private async refresh(now: number): Promise<BuiltCatalogue> {
    const version = await liveSeasonVersion(this.db);
    this.checkedAt = now;
    if (this.built && this.built.version === version && now < this.built.validUntil) return this.built;
    this.built = await buildCatalogue(this.db, new Date(now), version);
    return this.built;
  }
}

export async function buildCatalogue(db: DbOrTx, now: Date, version: number): Promise<BuiltCatalogue> {
  const [locations, types] = await Promise.all([listLocations(db), bookableTypes(db, now)]);
  const body: PublicCatalogue = {
    locations: locations.map((loc) => ({
      id: loc.id,
      name: loc.name,
      suburb: loc.suburb,
      state: loc.state,
      timezone: loc.timezone,
      seasonStart: loc.seasonStart,
      seasonEnd: loc.seasonEnd,
      salesOpenAt: loc.salesOpenAt?.toISOString() ?? null,
      slotTypes: types
        .filter((t) => t.locationId === loc.id)
        .map((t) => ({ id: t.id, name: t.name, durationMinutes: t.durationMinutes, fromPriceCents: t.fromPriceCents })),
    })),
  };
  const validUntil = Math.min(Number.POSITIVE_INFINITY, ...types.map((t) => t.lastStartAt.getTime()));
  const etag = `"catalogue-${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 22)}"`;
  return { body, etag, version, validUntil };
}

/** If-None-Match names this ETag (one of a list, weak or strong, or `*`). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
