import { execFileSync } from 'node:child_process';

/** What poppler's pdftotext reads in a PDF: an outsider's reading, not our own renderer's. */
export const pdfText = (pdf: Buffer) =>
  execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf, encoding: 'utf8' });
