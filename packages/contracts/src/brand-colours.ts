/**
 * The brand's palette (apps/web/src/index.css theme tokens), for what the web app's CSS cannot
 * reach: e-mails, receipts and the terms PDF. One place, so a family sees one brand everywhere.
 */
export const BRAND_COLOURS = {
  cream: '#fbf6ec', // cream-100
  card: '#fffdf8', // cream-50
  red: '#a3162a', // festive-700
  redTint: '#fcebec', // festive-50
  pine: '#1f5c3f', // pine-700
  gold: '#d8b44a', // gold-400
  goldDeep: '#c9a227', // gold-500
  ink: '#2b2118', // ink-900
  muted: '#5f5144', // ink-600
  line: '#e6d8bd', // cream-300
} as const;
