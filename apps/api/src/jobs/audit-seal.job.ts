import type { FastifyInstance } from 'fastify';
import { sealAuditEntries } from '../modules/audit/audit-chain.repository';
import type { Job } from './runner';

/**
 * Links new audit entries into the hash chain (decision 0078): every second, one process at a
 * time (an advisory lock), so an entry is sealed about a second after it commits.
 */
export function auditSealJob(app: FastifyInstance): Job {
  return {
    name: 'audit-seal',
    intervalMs: 1000,
    async run() {
      while ((await sealAuditEntries(app.db)) >= 2000) {
        // A backlog (a drop day's first minute): keep going while full batches come back.
      }
    },
  };
}
