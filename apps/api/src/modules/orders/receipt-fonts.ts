import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';

/**
 * Fonts embedded in receipts. PDF's built-in Helvetica only knows WinAnsi, and pdfkit wrote
 * anything else as a wider hex code that shifted every byte after it: "Zoë Łucja Nguyễn 王"
 * came out as "Zoë V6¦æwW…" and the e-mail address after it lost its first letters.
 * Noto Sans covers Latin (Vietnamese included), Greek and Cyrillic; Noto Sans SC is the
 * fallback for Chinese and Japanese, Noto Sans KR for Hangul (Google's SC build has none).
 * pdfkit embeds only the glyphs used (a subset).
 */
const FILES = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  cjk: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  hangul: '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
} as const;

/** Tried in this order after the text's own weight. */
const FALLBACKS: Face[] = ['cjk', 'hangul'];

export type Face = keyof typeof FILES;
export type Weight = 'regular' | 'bold';

interface Loaded {
  buffer: Buffer;
  font: Font;
}

const require = createRequire(import.meta.url);
const loaded = new Map<Face, Loaded>();

/** Read on first use and kept: the CJK fonts (10 and 6 MB) are only read when a name needs them. */
function load(face: Face): Loaded {
  let hit = loaded.get(face);
  if (!hit) {
    const buffer = readFileSync(require.resolve(FILES[face]));
    hit = { buffer, font: create(buffer) };
    loaded.set(face, hit);
  }
  return hit;
}

/** Spaces and controls are drawn with the text's own font, whatever the fallback has. */
const neutral = (cp: number) => cp <= 0x20 || (cp >= 0x2000 && cp <= 0x200f);

/** The text cut into runs, each with the first font that has glyphs for it. */
export function fontRuns(text: string, weight: Weight): { face: Face; text: string }[] {
  const runs: { face: Face; text: string }[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const face: Face =
      neutral(cp) || load(weight).font.hasGlyphForCodePoint(cp)
        ? weight
        : (FALLBACKS.find((f) => load(f).font.hasGlyphForCodePoint(cp)) ?? weight);
    const last = runs.at(-1);
    if (last && (last.face === face || neutral(cp))) last.text += ch;
    else runs.push({ face, text: ch });
  }
  return runs;
}

const registered = new WeakMap<PDFKit.PDFDocument, Set<Face>>();

/** Selects a face on the document, registering it there on first use. */
export function useFace(doc: PDFKit.PDFDocument, face: Face): PDFKit.PDFDocument {
  let faces = registered.get(doc);
  if (!faces) registered.set(doc, (faces = new Set()));
  if (!faces.has(face)) {
    doc.registerFont(`kringle-${face}`, load(face).buffer);
    faces.add(face);
  }
  return doc.font(`kringle-${face}`);
}

/**
 * Writes `text` like doc.text(text, x, y, options), switching to the fallback font for the
 * runs the main one has no glyphs for (pdfkit's `continued` text keeps them on one line flow).
 */
export function writeText(
  doc: PDFKit.PDFDocument,
  text: string,
  weight: Weight,
  x: number,
  y: number,
  options: PDFKit.Mixins.TextOptions = {},
): void {
  const runs = fontRuns(text, weight);
  if (runs.length <= 1) {
    useFace(doc, weight).text(text, x, y, options);
    return;
  }
  runs.forEach((run, i) => {
    const continued = i < runs.length - 1;
    useFace(doc, run.face);
    if (i === 0) doc.text(run.text, x, y, { ...options, continued });
    else doc.text(run.text, { continued });
  });
}
