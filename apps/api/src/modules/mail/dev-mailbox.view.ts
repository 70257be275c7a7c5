import { escapeHtml } from './mail-layout';
import type { StoredMail } from './dev-mailbox.repository';

export interface MailboxView {
  brandName: string;
  to?: string;
  mails: StoredMail[];
  selected: StoredMail | null;
}

const time = (d: Date) => d.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';

function link(params: { to?: string; id?: string }): string {
  const q = new URLSearchParams();
  if (params.to) q.set('to', params.to);
  if (params.id) q.set('id', params.id);
  const s = q.toString();
  return escapeHtml(`/dev/mailbox${s ? `?${s}` : ''}`);
}

const STYLE = `
 * {box-sizing:border-box}body{margin:0;background:#fbf6ec;color:#2b2421;font:15px/1.45
 * -apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif}
header{display:flex;flex-wrap:wrap;gap:12px;align-items:center;justify-content:space-between;padding:14px \
20px;background:#b3261e;color:#fff}
header h1{margin:0;font:700 20px/1.2 Georgia,'Times New Roman',serif}header h1 span{font:400 14px/1 \
inherit;opacity:.85;margin-left:8px}
form{display:flex;gap:8px;flex-wrap:wrap}input{min-height:44px;padding:8px 12px;border:1px solid \
#eadfcb;border-radius:8px;font:inherit;min-width:220px}
button,.btn{min-height:44px;padding:10px \
16px;border:0;border-radius:8px;background:#fff;color:#b3261e;font-family:inherit;font-size:15px;font-weight:600;
line-height:1.5;text-decoration:none;cursor:pointer;display:inline-flex;align-items:center}
main{display:grid;grid-template-columns:minmax(260px,360px) 1fr;gap:16px;padding:16px;max-width:1400px;margin:0 auto}
@media (max-width:800px){main{grid-template-columns:1fr;padding:8px}.message{padding:12px}}
.list{background:#fff;border-radius:12px;border-top:4px solid #c9a227;overflow:hidden;align-self:start}
.list a{display:block;padding:12px 16px;border-bottom:1px solid #f1e8d8;color:inherit;text-decoration:none}
.list a:hover,.list a:focus{background:#fdf3e2;outline:none}.list \
a[aria-current]{background:#f9e5e3;box-shadow:inset 4px 0 0 #b3261e}
.subject{font-weight:600;display:block}.meta{color:#6b5f58;font-size:13px;display:block;overflow-wrap:anywhere}
.empty{padding:24px 16px;color:#6b5f58}
.message{background:#fff;border-radius:12px;padding:20px;border-top:4px solid #c9a227;min-width:0}
.message h2{margin:0 0 8px;font-size:20px}dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:0 0 \
16px;font-size:14px}dt{color:#6b5f58}dd{margin:0;overflow-wrap:anywhere}
iframe{width:100%;height:70vh;border:1px solid #eadfcb;border-radius:8px;background:#fbf6ec}
details{margin-top:16px}
summary{cursor:pointer;color:#1f5135;font-weight:600;min-height:44px;display:flex;align-items:center}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#fbf6ec;padding:12px;border-radius:8px;font-size:13px}
`;

/** The development mailbox page: a message list and the chosen message, its HTML in a sandboxed frame. */
export function renderMailboxPage(view: MailboxView): string {
  const items = view.mails
    .map((m) => {
      const current = view.selected?.id === m.id ? ' aria-current="true"' : '';
      return `<a href="${link({ to: view.to, id: m.id })}"${current}><span class="subject">\
${escapeHtml(m.subject || '(no subject)')}</span>
<span class="meta">To ${escapeHtml(m.toAddress)}</span><span class="meta">${time(m.createdAt)}</span></a>`;
    })
    .join('\n');
  const m = view.selected;
  const message = m
    ? `<article class="message" aria-labelledby="subject"><h2 ` +
      `id="subject">${escapeHtml(m.subject || '(no subject)')}</h2>
<dl><dt>From</dt><dd>${escapeHtml(m.fromAddress)}</dd><dt>To</dt><dd>\
${escapeHtml(m.toAddress)}</dd><dt>Received</dt><dd>${time(m.createdAt)}</dd></dl>
${
  m.html
    ? `<iframe title="Message body" ` +
      `src="/dev/mailbox/${m.id}/html" sandbox="allow-popups allow-popups-to-escape-sandbox"></iframe>`
    : ''
}
<details${m.html ? '' : ' open'}><summary>Plain-text version</summary><pre>\
${escapeHtml(m.text)}</pre></details></article>`
    : `<article class="message"><p ` +
      `class="empty">${
        view.mails.length
          ? 'Choose a message.'
          : 'No mail yet. Mail the app sends appears here ' + 'within a second or two.'
      }</p></article>`;

  return `<!doctype html>
<html lang="en-AU"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mailbox | ${escapeHtml(view.brandName)}</title><style>${STYLE}</style></head>
<body><header><h1>${escapeHtml(view.brandName)} <span>development mailbox</span></h1>
<form method="get" action="/dev/mailbox" role="search"><label for="to" \
style="position:absolute;left:-9999px">Recipient</label>
<input id="to" name="to" type="email" placeholder="Filter by recipient" value="${escapeHtml(view.to ?? '')}">
<button type="submit">Filter</button><a class="btn" href="\
${link({ to: view.to, id: view.selected?.id })}">Refresh</a></form></header>
<main><nav class="list" aria-label="Messages">${
    items || '<p class="empty">Nothing ' + 'here.</p>'
  }</nav>${message}</main></body></html>`;
}

/** A message's own HTML for the frame: links open in a new tab, since the sandbox keeps the frame inert. */
export function framedMailHtml(html: string): string {
  const base = '<base target="_blank">';
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (h) => `${h}${base}`) : `${base}${html}`;
}
