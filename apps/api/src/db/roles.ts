import pg from 'pg';

/**
 * Two database roles (decision 0078): migrations run as the owner of the tables, the API as a
 * runtime role that owns nothing, so it cannot disable the audit trail's triggers, set
 * `session_replication_role` or alter a table. These are the runtime role's grants, applied by
 * the owner after every migration (db/migrate.ts) and, through the default privileges, to any
 * table a later migration creates before they are applied again.
 */

/** Read and appended to, never changed: the audit trail and its chain. */
export const INSERT_ONLY_TABLES = ['audit_entries', 'audit_chain'] as const;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The statements, in order (docs/deploy.md prints the same list for an operator). */
export function runtimeGrantStatements(role: string): string[] {
  const r = ident(role);
  const insertOnly = INSERT_ONLY_TABLES.map(ident).join(', ');
  return [
    `GRANT USAGE ON SCHEMA public TO ${r}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${r}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${r}`,
    // Tables made by later migrations (the owner's default privileges) get the ordinary grants
    // even before this list runs again; an insert-only table is listed above and revoked here.
    `ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${r}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO ${r}`,
    `REVOKE UPDATE, DELETE, TRUNCATE, TRIGGER, REFERENCES ON ${insertOnly} FROM ${r}`,
    // Deleting an account blanks its e-mail in the trail (decision 0051); the trigger lets that
    // one column change and nothing else.
    `GRANT UPDATE (actor_email) ON audit_entries TO ${r}`,
  ];
}

/** Applies the runtime role's grants as the owner (the client is the migration connection). */
export async function grantRuntimeRole(client: pg.Client, role: string): Promise<void> {
  if (role === (await currentRole(client))) return;
  for (const statement of runtimeGrantStatements(role)) await client.query(statement);
}

export async function currentRole(client: pg.Client | pg.Pool): Promise<string> {
  const { rows } = await client.query<{ role: string }>('select current_user as role');
  return rows[0]!.role;
}

/** The role a URL signs in as (not the URL's user name: a pooler or a certificate may map it). */
export async function roleOfUrl(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, application_name: 'kringle-role-check' });
  await client.connect();
  try {
    return await currentRole(client);
  } finally {
    await client.end();
  }
}

/**
 * Why this connection's role could rewrite the audit trail, if it could: a superuser (or a
 * role that bypasses row security), or the owner of a table (directly or through a role it is a
 * member of), who may disable its triggers. Empty when the role owns nothing.
 */
export async function runtimeRoleProblems(client: pg.Client | pg.Pool): Promise<string[]> {
  const { rows } = await client.query<{
    role: string;
    superuser: boolean;
    bypassrls: boolean;
    owned: number;
    createrole: boolean;
  }>(`
    select r.rolname as role, r.rolsuper as superuser, r.rolbypassrls as bypassrls, r.rolcreaterole as createrole,
           (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where n.nspname = 'public' and c.relkind in ('r', 'p', 'S', 'v', 'm') and pg_has_role(current_user,
             c.relowner, 'USAGE')) as owned
      from pg_roles r where r.rolname = current_user`);
  const row = rows[0]!;
  const problems: string[] = [];
  if (row.superuser) problems.push(`${row.role} is a superuser`);
  else if (row.bypassrls) problems.push(`${row.role} bypasses row security`);
  if (row.createrole) problems.push(`${row.role} may create roles`);
  if (row.owned > 0) problems.push(`${row.role} owns ${row.owned} tables, views or sequences`);
  return problems;
}
