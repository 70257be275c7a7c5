import type { FastifyInstance } from 'fastify';
import PDFDocument from 'pdfkit';
import { TERMS_SECTIONS, TERMS_TITLE, TERMS_UPDATED } from '@kringle/contracts/terms';

/** Renders the shared terms text (packages/contracts/src/terms.ts) as an A4 PDF. */
export function renderTermsPdf(brandName: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `${TERMS_TITLE} | ${brandName}`, Author: brandName } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.fillColor('#a3162a').font('Helvetica-Bold').fontSize(11).text(`${brandName.toUpperCase()}  ·  PHOTOS WITH SANTA`);
    doc.moveDown(0.5);
    doc.fillColor('#2b2118').fontSize(22).text(TERMS_TITLE);
    const updated = new Date(`${TERMS_UPDATED}T00:00:00Z`).toLocaleDateString('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    doc.font('Helvetica').fontSize(10).fillColor('#6b5e52').text(`Last updated ${updated}`);
    doc.moveDown(1);
    for (const section of TERMS_SECTIONS) {
      doc.font('Helvetica-Bold').fontSize(13).fillColor('#2b2118').text(section.heading);
      doc.moveDown(0.3);
      for (const paragraph of section.paragraphs) {
        doc.font('Helvetica').fontSize(11).fillColor('#2b2118').text(paragraph, { lineGap: 2 });
        doc.moveDown(0.5);
      }
      doc.moveDown(0.4);
    }
    doc.end();
  });
}

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
