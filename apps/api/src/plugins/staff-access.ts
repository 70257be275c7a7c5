/**
 * PLACEHOLDER (issue 40): another branch adds per-role staff access (`config.staffRoles`, enforced
 * by the auth plugin). Until it lands here only the declaration exists, so the waiting room's staff
 * routes can say who they are for; every staff token may still call them. Replace this file with
 * that branch's when merging.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    staffRoles?: readonly ('manager' | 'support' | 'set')[];
  }
}

export {};
