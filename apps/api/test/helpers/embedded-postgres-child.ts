import { startEmbeddedPostgres } from '../../src/dev/embedded-postgres';

// A start that only runs the embedded PostgreSQL, for a test to SIGKILL (faults/killed-start-restarts.test.ts).
const db = await startEmbeddedPostgres(process.argv[2]!);
console.log(`ready ${db.url}`);
setInterval(() => {}, 60_000);
