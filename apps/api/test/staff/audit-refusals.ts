import pg from 'pg';
import type { AuditAction } from '@kringle/contracts/audit-actions';

export interface AuditRefusals {
  /** Runs `change` while `action` cannot be written to the trail. */
  refusing<T>(action: AuditAction, change: () => Promise<T>): Promise<T>;
  end(): Promise<void>;
}

/**
 * The audit tests' switch (issue 48 item 5): a trigger refuses to write the audit entry of an action listed in its
 * table, so the change must be undone with it. Made as the database's owner: the runtime role may not make the test's
 * trigger (decision 0078).
 */
export async function auditRefusals(ownerUrl: string): Promise<AuditRefusals> {
  const owner = new pg.Client({ connectionString: ownerUrl });
  await owner.connect();
  try {
    await owner.query('create table test_refused_audit (action text primary key)');
    await owner.query('grant select on test_refused_audit to public');
    await owner.query(`create function test_refuse_audit() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from test_refused_audit where action = new.action) then raise exception
        'audit refused by the test'; end if;
        return new;
      end $$`);
    await owner.query(
      'create trigger test_refuse_audit before insert on audit_entries for each row execute function ' +
        'test_refuse_audit()',
    );
  } catch (error) {
    await owner.end();
    throw error;
  }
  return {
    async refusing(action, change) {
      await owner.query('insert into test_refused_audit values ($1)', [action]);
      try {
        return await change();
      } finally {
        await owner.query('delete from test_refused_audit where action = $1', [action]);
      }
    },
    end: () => owner.end(),
  };
}
