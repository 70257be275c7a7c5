import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/** The QR code on a PDF's first page, as poppler renders it and jsQR reads it: what a phone's camera would see. */
export function pdfQrText(pdf: Buffer): string | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'kringle-qr-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', ['-png', '-r', '100', '-f', '1', '-l', '1', '-singlefile', 'in.pdf', 'page'], {
      cwd: dir,
    });
    const png = PNG.sync.read(readFileSync(path.join(dir, 'page.png')));
    return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
