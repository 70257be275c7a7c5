import PDFDocument from 'pdfkit';
import { BRAND_COLOURS } from '@kringle/contracts/brand-colours';
import { TERMS_SECTIONS, TERMS_TITLE, TERMS_UPDATED } from '@kringle/contracts/terms';

/** Renders the shared terms text (packages/contracts/src/terms.ts) as an A4 PDF. */
export function renderTermsPdf(brandName: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 56,
      info: { Title: `${TERMS_TITLE} | ${brandName}`, Author: brandName },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc
      .fillColor(BRAND_COLOURS.red)
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(`${brandName.toUpperCase()}  ·  PHOTOS WITH SANTA`);
    doc.moveDown(0.5);
    doc.fillColor(BRAND_COLOURS.ink).fontSize(22).text(TERMS_TITLE);
    const updated = new Date(`${TERMS_UPDATED}T00:00:00Z`).toLocaleDateString('en-AU', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    doc.font('Helvetica').fontSize(10).fillColor(BRAND_COLOURS.muted).text(`Last updated ${updated}`);
    doc.moveDown(1);
    for (const section of TERMS_SECTIONS) {
      doc.font('Helvetica-Bold').fontSize(13).fillColor(BRAND_COLOURS.ink).text(section.heading);
      doc.moveDown(0.3);
      for (const paragraph of section.paragraphs) {
        doc.font('Helvetica').fontSize(11).fillColor(BRAND_COLOURS.ink).text(paragraph, { lineGap: 2 });
        doc.moveDown(0.5);
      }
      doc.moveDown(0.4);
    }
    doc.end();
  });
}
