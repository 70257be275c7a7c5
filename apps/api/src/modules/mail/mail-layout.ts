/**
 * The one e-mail layout (HTML and plain text) every Kringle mail uses, so all mail looks like the
 * brand: the web app's own colours (apps/web/src/index.css: festive-700 red, gold-400, cream-100,
 * ink-900, pine-700) and its mark (public/logo.png, drawn from logo.svg, beside the brand name in the display serif).
 *
 *   const { html, text } = renderEmail({
 *     brandName: app.config.BRAND_NAME,
 *     title: 'Confirm your e-mail',
 *     intro: ['Hi Mary,', 'Tap the button to confirm your e-mail address.'],
 *     action: { label: 'Confirm e-mail', url: link },
 *     details: [{ label: 'Reference', value: 'KR-7K3Q9' }],
 *     outro: 'If you did not ask for this, ignore this e-mail.',
 *   });
 *
 * Every interpolated string is escaped; action URLs must be http(s).
 */
import { BRAND_COLOURS } from '@kringle/contracts/brand-colours';

export interface EmailContent {
  brandName: string;
  /** Subject-like heading shown at the top of the mail. */
  title: string;
  /** Hidden preview text some mail apps show next to the subject; defaults to the first intro line. */
  preheader?: string;
  /** One paragraph or several. */
  intro: string | string[];
  action?: { label: string; url: string };
  /** A small label/value table, e.g. session time, location, booking reference. */
  details?: { label: string; value: string }[];
  outro?: string | string[];
  /** Absolute URL of the app's logo (mailLogoUrl); mail apps that block images still show the brand name beside it. */
  logoUrl?: string;
  /** An inline picture after the details (e.g. the check-in QR code, a `cid:` attachment). */
  image?: EmailImage;
  /**
   * Only in a mail that carries news or an offer, to a family that opted in (marketing/promotional-mail.ts):
   * the unsubscribe link, shown in the footer as well as in the List-Unsubscribe header.
   */
  unsubscribeUrl?: string;
}

export interface EmailImage {
  /** `cid:` of an inline attachment or an https URL; mail apps block data: URIs and SVG. */
  src: string;
  alt: string;
  /** Width and height in CSS pixels. */
  size: number;
  caption?: string;
}

export interface RenderedEmail {
  html: string;
  text: string;
}

/** The brand's palette, shared with receipts and the terms PDF. */
export const COLOURS = BRAND_COLOURS;
const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const DISPLAY_FONT = "ui-serif, Georgia, 'Times New Roman', serif";

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function safeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new Error(`E-mail links must be http(s), got ${parsed.protocol}`);
  return parsed.toString();
}

const list = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

function paragraph(text: string): string {
  return `<p style="margin:0 0 16px;font:16px/1.55 ${FONT};color:${COLOURS.ink};">${escapeHtml(text)}</p>`;
}

function button(label: string, url: string): string {
  const href = escapeHtml(url);
  return `<table role="presentation" cellspacing="0" cellpadding="0" border="0" style="margin:8px 0 24px;"><tr>
<td style="border-radius:10px;background:${COLOURS.red};">
<a href="${href}" style="display:inline-block;padding:14px 24px;font:600 16px/1.2 \
${FONT};color:#ffffff;text-decoration:none;border-radius:10px;">${escapeHtml(label)}</a>
</td></tr></table>
<p style="margin:0 0 20px;font:13px/1.5 ${FONT};color:${COLOURS.muted};">Button not working? Copy this link into \
your browser:<br><a href="${href}" style="color:${COLOURS.red};word-break:break-all;">${escapeHtml(url)}</a></p>`;
}

/** The one summary block (date, time, place, reference…) every booking mail shows above its button. */
function detailsTable(details: { label: string; value: string }[]): string {
  const rows = details
    .map(
      (d) =>
        `<tr><td style="padding:6px 16px 6px 0;font:14px/1.4 ` +
        `${FONT};color:${COLOURS.muted};vertical-align:top;white-space:nowrap;">${escapeHtml(d.label)}</td>
<td style="padding:6px 0;font:600 15px/1.4 ${FONT};color:${COLOURS.ink};">${escapeHtml(d.value)}</td></tr>`,
    )
    .join('');
  return (
    `<table role="presentation" cellspacing="0" cellpadding="0" border="0" width="100%" style="margin:4px 0 ` +
    `24px;background:${COLOURS.cream};border:1px solid ${COLOURS.line};border-left:4px solid ` +
    `${COLOURS.red};border-radius:10px;"><tr><td style="padding:12px 16px;">
<table role="presentation" cellspacing="0" cellpadding="0" border="0" width="100%">${rows}</table></td></tr></table>`
  );
}

/**
 * The logo mails show, at the root of the app's origin: a PNG, which mail apps render where many
 * do not render SVG, served to any site (the security plugin's MAIL_ASSETS), since webmail shows
 * it from its own origin.
 */
export const mailLogoUrl = (origin: string) => `${new URL(origin).origin}/logo.png`;

function brandMark(brand: string, logoUrl: string | undefined): string {
  const logo = logoUrl
    ? `<img src="${escapeHtml(safeUrl(logoUrl))}" width="40" height="40" alt="" ` +
      `style="display:inline-block;vertical-align:middle;margin-right:10px;border:0;">`
    : '';
  return `${logo}<span style="vertical-align:middle;">${brand}</span>`;
}

function picture(image: EmailImage): string {
  const caption = image.caption
    ? `<br><span style="font:600 15px/1.6 ` +
      `${FONT};color:${COLOURS.ink};letter-spacing:0.5px;">${escapeHtml(image.caption)}</span>`
    : '';
  return (
    `<p style="margin:0 0 20px;text-align:center;"><img ` +
    (`src="${escapeHtml(image.src)}" alt="${escapeHtml(image.alt)}" width="${image.size}" height="${image.size}" ` +
      `style="display:inline-block;border:0;width:${image.size}px;height:${image.size}px;">${caption}</p>`)
  );
}

export function renderEmail(content: EmailContent): RenderedEmail {
  const intro = list(content.intro);
  const outro = list(content.outro);
  const action = content.action ? { label: content.action.label, url: safeUrl(content.action.url) } : undefined;
  const details = content.details ?? [];
  const brand = escapeHtml(content.brandName);
  const preheader = content.preheader ?? intro[0] ?? '';
  // The app's origin comes with the logo (mailLogoUrl): every e-mail that has one links the privacy policy.
  const privacyUrl = content.logoUrl ? new URL('/privacy', content.logoUrl).href : undefined;
  const unsubscribeUrl = content.unsubscribeUrl ? safeUrl(content.unsubscribeUrl) : undefined;
  const unsubscribeHtml = unsubscribeUrl
    ? '<br>You get our news because you asked for it. ' +
      `<a href="${escapeHtml(unsubscribeUrl)}" style="color:${COLOURS.muted};">Unsubscribe</a> in one tap.`
    : '';

  const html = `<!doctype html>
<html lang="en-AU">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(content.title)}</title>
<style>@media (max-width:480px){.k-outer{padding:16px 8px !important}.k-card{padding:24px 18px !important}}</style>
</head>
<body style="margin:0;padding:0;background:${COLOURS.cream};">
<div style="display:none;max-height:0;overflow:hidden;opacity:0;">${escapeHtml(preheader)}</div>
<table role="presentation" cellspacing="0" cellpadding="0" border="0" width="100%" style="background:${COLOURS.cream};">
<tr><td class="k-outer" align="center" style="padding:32px 16px;">
<table role="presentation" cellspacing="0" cellpadding="0" border="0" width="100%" style="max-width:560px;">
<tr><td style="padding:0 4px 16px;font:600 22px/1.2 ${DISPLAY_FONT};color:${COLOURS.red};">\
${brandMark(brand, content.logoUrl)}</td></tr>
<tr><td class="k-card" style="background:${COLOURS.card};border-radius:14px;border-top:4px solid \
${COLOURS.gold};padding:32px 28px;box-shadow:0 1px 3px rgba(43,36,33,0.08);">
<h1 style="margin:0 0 20px;font:700 24px/1.3 ${FONT};color:${COLOURS.ink};">${escapeHtml(content.title)}</h1>
${intro.map(paragraph).join('\n')}
${details.length ? detailsTable(details) : ''}
${content.image ? picture(content.image) : ''}
${action ? button(action.label, action.url) : ''}
${outro.map(paragraph).join('\n')}
<p style="margin:8px 0 0;font:16px/1.55 ${FONT};color:${COLOURS.pine};">Warm wishes,<br>The ${brand} team</p>
</td></tr>
<tr><td style="padding:20px 4px;font:12px/1.5 ${FONT};color:${COLOURS.muted};text-align:center;">This e-mail was \
sent by ${brand}. Replies to this address are not read.${
    privacyUrl ? ` <a href="${escapeHtml(privacyUrl)}" style="color:${COLOURS.muted};">Privacy ` + `policy</a>` : ''
  }${unsubscribeHtml}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;

  const text = [
    content.title,
    '',
    ...intro.flatMap((p) => [p, '']),
    ...(details.length ? [...details.map((d) => `${d.label}: ${d.value}`), ''] : []),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    ...outro.flatMap((p) => [p, '']),
    'Warm wishes,',
    `The ${content.brandName} team`,
    ...(privacyUrl ? ['', `Privacy policy: ${privacyUrl}`] : []),
    ...(unsubscribeUrl
      ? ['', `You get our news because you asked for it. Unsubscribe in one tap: ${unsubscribeUrl}`]
      : []),
  ].join('\n');

  return { html, text };
}
