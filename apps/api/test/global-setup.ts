import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { runMigrations } from '../src/db/migrate';
import { startEmbeddedPostgres } from '../src/dev/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    pgBaseUrl: string;
  }
}

/**
 * One real PostgreSQL server for the whole run (TEST_DATABASE_URL, or an embedded one in a temp
 * folder), with a migrated template database that each test file clones (test/test-app.ts).
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
  await runMigrations(withDatabase(baseUrl, 'kringle_template'));
  project.provide('pgBaseUrl', baseUrl);
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
