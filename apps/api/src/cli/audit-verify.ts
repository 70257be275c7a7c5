import path from 'node:path';
import { ConfigError, loadConfig } from '../config/config';
import { createDb } from '../db/client';
import { openEmbeddedPostgres } from '../dev/embedded-postgres';
import { verifyAuditChain } from '../modules/audit/audit-chain.repository';

/**
 * `npm run audit:verify`: recomputes the audit trail's hash chain in DATABASE_URL (or the
 * embedded database in ./.data, running or not) and names the first broken link. Exit code 0 when
 * every sealed entry is as it was sealed, 1 when a link is broken (decision 0078). Read-only: the
 * runtime role's SELECT is enough.
 */
async function main() {
  const config = loadConfig();
  const embedded = config.DATABASE_URL ? null : await openEmbeddedPostgres(path.join(config.DATA_DIR, 'postgres'));
  const url = config.DATABASE_URL ?? embedded!.runtimeUrl;
  const { db, pool } = createDb(url, 2);
  try {
    const report = await verifyAuditChain(db);
    const unsealed = report.unsealed.count
      ? `${report.unsealed.count} entries not sealed yet (from seq ` +
        `${report.unsealed.oldestSeq}; the API's audit-seal job links new entries within about a second while it runs).`
      : 'Every entry is sealed.';
    if (report.broken) {
      const b = report.broken;
      console.error(
        `Audit chain BROKEN at link ` +
          (`${b.link}: entry ${b.entryId} (seq ` +
            `${b.seq}${b.action ? `, ${b.action}` : ''}${b.at ? `, at ${b.at}` : ''}): ${b.problem}.\n`) +
          `${report.links} links before it verify.`,
      );
      process.exitCode = 1;
      return;
    }
    console.log(
      `Audit chain verified: ${report.links} links` +
        (report.head
          ? `, head link ${report.head.link} ${report.head.hash} (keep a copy elsewhere: a rewrite of the whole ` +
            `chain changes it).`
          : '.') +
        `\n${unsealed}`,
    );
  } finally {
    await pool.end();
    await embedded?.stop();
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(2);
});
