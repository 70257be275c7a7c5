import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config/config';
import { createDb } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { openEmbeddedPostgres } from '../dev/embedded-postgres';
import { loadSeason, parseSeason, SeasonFileError } from '../modules/catalogue/season.service';

/**
 * `npm run season:load -- <file.json>`: validates a season file and loads it into DATABASE_URL
 * (or the embedded database in ./.data, running or not). Safe to run again.
 */
async function main() {
  const file = process.argv[2];
  if (!file) {
    console.error('Usage: npm run season:load -- <season.json>   (see docs/season.md)');
    process.exit(2);
  }
  const input = JSON.parse(
    fs.readFileSync(path.resolve(process.env.INIT_CWD ?? process.cwd(), file), 'utf8'),
  ) as unknown;
  // A bad file is refused before any database is opened, with the editor's own messages (decision 0056).
  parseSeason(input);
  const config = loadConfig();
  const embedded = config.DATABASE_URL ? null : await openEmbeddedPostgres(path.join(config.DATA_DIR, 'postgres'));
  const url = config.DATABASE_URL ?? embedded!.runtimeUrl;
  try {
    // As the owner when one is named (decision 0078), then as the runtime role.
    await migrateDatabase(url, config.MIGRATION_DATABASE_URL ?? embedded?.url);
    const { db, pool } = createDb(url, 2);
    try {
      const report = await loadSeason(db, input);
      for (const loc of report.locations) {
        console.log(
          `${loc.slug}: ${loc.slots.planned} sessions and breaks planned, ${loc.slots.removed} removed` +
            (loc.slots.retired ? `, ${loc.slots.retired} booked or held kept but taken out of sale` : ''),
        );
      }
      console.log(`${report.packages} packages, ${report.addOns} add-ons. Season loaded: version ${report.version}.`);
    } finally {
      await pool.end();
    }
  } finally {
    await embedded?.stop();
  }
}

main().catch((err: unknown) => {
  if (err instanceof SeasonFileError || err instanceof ConfigError) console.error(err.message);
  else if (err instanceof SyntaxError) console.error(`The season file is not valid JSON: ${err.message}`);
  else console.error(err);
  process.exit(1);
});
