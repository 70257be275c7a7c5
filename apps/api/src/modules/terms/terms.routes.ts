import type { FastifyInstance } from 'fastify';
import { renderTermsPdf } from './terms.pdf';

/** GET /common/terms.pdf: public, no app check (a plain link from the terms page). */
export async function termsRoutes(app: FastifyInstance) {
  let cached: Buffer | null = null;
  app.get(
    '/common/terms.pdf',
    {
      // Public and opened by a plain link, which cannot carry X-App-Check.
      config: { auth: 'public', appCheck: false },
      schema: {
        tags: ['common'],
        summary: 'The terms and conditions as a PDF (public, no app check)',
        produces: ['application/pdf'],
      },
    },
    async (_request, reply) => {
      cached ??= await renderTermsPdf(app.config.BRAND_NAME);
      return reply
        .type('application/pdf')
        .header('content-disposition', 'inline; filename="terms-and-conditions.pdf"')
        .header('cache-control', 'public, max-age=3600')
        .send(cached);
    },
  );
}
