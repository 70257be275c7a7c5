import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { devMailbox } from '../../db/schema/mail';

export interface CaughtMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The list headers (List-Unsubscribe, List-Unsubscribe-Post, List-Id), lower-case names. */
  headers?: Record<string, string>;
}

export type StoredMail = typeof devMailbox.$inferSelect;

export async function storeCaughtMail(db: Db, mails: CaughtMail[]): Promise<void> {
  if (mails.length === 0) return;
  await db.insert(devMailbox).values(
    mails.map((m) => ({
      toAddress: m.to.toLowerCase(),
      fromAddress: m.from,
      subject: m.subject,
      text: m.text,
      html: m.html,
      headers: m.headers ?? {},
    })),
  );
}

/** Newest first; `to` matches case-insensitively. */
export async function listCaughtMail(db: Db, filter: { to?: string; limit: number }): Promise<StoredMail[]> {
  return db
    .select()
    .from(devMailbox)
    .where(filter.to ? eq(devMailbox.toAddress, filter.to.toLowerCase()) : undefined)
    .orderBy(desc(devMailbox.createdAt), desc(sql`ctid`))
    .limit(filter.limit);
}

export async function findCaughtMail(db: Db, id: string): Promise<StoredMail | null> {
  const [row] = await db
    .select()
    .from(devMailbox)
    .where(and(eq(devMailbox.id, id)))
    .limit(1);
  return row ?? null;
}
