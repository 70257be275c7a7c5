import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { runMigrations } from '../src/db/migrate';
import { ensureRuntimeRole, RUNTIME_ROLE, startEmbeddedPostgres } from '../src/dev/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server's superuser (owner of every test database): setup that must bypass the grants. */
    pgBaseUrl: string;
    /** The same server as the runtime role the API runs as, which owns nothing (decision 0078). */
    pgRuntimeUrl: string;
  }
}

/**
 * One real PostgreSQL server for the whole run (TEST_DATABASE_URL, or an embedded one in a temp
 * folder), with a migrated template database that each test file clones (test/helpers/test-app.ts). The
 * template is migrated by the superuser and grants the runtime role (kringle_app) what the API
 * needs; a clone keeps those grants, so every test runs the app as the role production runs it as.
 */
export default async function setup(project: TestProject) {
  let baseUrl = process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  let dir: string | null = null;
  if (!baseUrl) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kringle-test-pg-'));
    fs.chmodSync(dir, 0o777);
    const server = await startEmbeddedPostgres(path.join(dir, 'data'), 'postgres_admin');
    baseUrl = server.url;
    stop = server.stop;
  }
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query('drop database if exists kringle_template');
  await admin.query('create database kringle_template');
  await admin.end();
  const runtimeUrl = await ensureRuntimeRole(baseUrl);
  await runMigrations(withDatabase(baseUrl, 'kringle_template'), { grantTo: RUNTIME_ROLE });
  project.provide('pgBaseUrl', baseUrl);
  project.provide('pgRuntimeUrl', runtimeUrl);
  return async () => {
    await stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
