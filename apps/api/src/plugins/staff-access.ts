// Placeholder (issue 39's photos branch): the `staffRoles` route config that the staff-roles work
// (API.md Additions, "Staff roles") adds and enforces in parallel. The photos routes declare their
// roles with it already; until that work lands here, any staff account passes (auth: 'staff').
// Replace this file with that branch's version when merging.
declare module 'fastify' {
  interface FastifyContextConfig {
    staffRoles?: readonly ('manager' | 'support' | 'set')[];
  }
}

export {};
