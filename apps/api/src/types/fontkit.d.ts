// fontkit ships no types; this is the little the receipts use (the font coverage check).
declare module 'fontkit' {
  export interface Font {
    postscriptName: string;
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font;
}
