import path from 'node:path';
import { parseArgs } from 'node:util';
import { emailSchema } from '@kringle/contracts/accounts';
import { STAFF_ROLES, staffRoleSchema } from '@kringle/contracts/staff-roles';
import { ConfigError, loadConfig } from '../config/config';
import { createDb } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { openEmbeddedPostgres } from '../dev/embedded-postgres';
import { systemClock } from '../lib/clock';
import { AppError } from '../lib/app-error';
import { locationIdsBySlug } from '../modules/staff-accounts/staff-accounts.repository';
import { StaffAccountsService } from '../modules/staff-accounts/staff-accounts.service';

const USAGE = `Usage: npm run staff:add -- --email E --role ${STAFF_ROLES.join('|')} [--location SLUG]...`;

/**
 * `npm run staff:add -- --email E --role R [--location SLUG]...`: makes a staff account in
 * DATABASE_URL (or the embedded database) and prints its invitation link; the first manager of a
 * real deployment is made this way (decision 0050). The invitation e-mail is queued too.
 */
async function main() {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, role: { type: 'string' }, location: { type: 'string', multiple: true } },
    strict: true,
  });
  const email = emailSchema.safeParse(values.email ?? '');
  const role = staffRoleSchema.safeParse(values.role);
  if (!email.success || !role.success) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = loadConfig();
  const embedded = config.DATABASE_URL ? null : await openEmbeddedPostgres(path.join(config.DATA_DIR, 'postgres'));
  const url = config.DATABASE_URL ?? embedded!.runtimeUrl;
  try {
    // As the owner when one is named (decision 0078), then as the runtime role.
    await migrateDatabase(url, config.MIGRATION_DATABASE_URL ?? embedded?.url);
    const { db, pool } = createDb(url, 2);
    try {
      const slugs = values.location ?? [];
      const ids = await locationIdsBySlug(db, slugs);
      const missing = slugs.filter((s) => !ids.has(s));
      if (missing.length)
        throw new ConfigError(`Unknown location: ${missing.join(', ')} (load the season first: npm run season:load)`);
      const service = new StaffAccountsService(db, systemClock, {
        brandName: config.BRAND_NAME,
        publicUrl: config.PUBLIC_URL,
        forget: () => {},
      });
      const { account, link } = await service.invite({
        email: email.data,
        role: role.data,
        locationIds: slugs.map((s) => ids.get(s)!),
      });
      console.log(
        `${account.email} (${account.role}, ${slugs.length ? slugs.join(', ') : 'every location'}) invited. The ` +
          `link works once, for 7 days:`,
      );
      console.log(link);
    } finally {
      await pool.end();
    }
  } finally {
    await embedded?.stop();
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof AppError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
