/** One uploaded part of a multipart/form-data body. */
export interface Upload {
  filename: string;
  contentType: string;
  data: Buffer;
}

/**
 * Reads a multipart/form-data body (RFC 7578) as Stripe's SDKs send it to `POST /v1/files`: text
 * fields, and parts with a filename kept as bytes. Null when the body does not parse.
 */
export function parseMultipart(
  body: Buffer,
  contentType: string,
): { fields: Record<string, string>; uploads: Record<string, Upload> } | null {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const mark = boundary?.[1] ?? boundary?.[2];
  if (!mark) return null;
  const delimiter = Buffer.from(`--${mark}`);
  const fields: Record<string, string> = {};
  const uploads: Record<string, Upload> = {};
  let at = body.indexOf(delimiter);
  if (at < 0) return null;
  for (;;) {
    const start = at + delimiter.length;
    // The closing delimiter is followed by "--".
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) return null;
    // Each part: CRLF, headers, CRLF CRLF, content, CRLF (before the next delimiter).
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) return null;
    const headers = part.subarray(0, split).toString('utf8');
    const content = part.subarray(split + 4);
    const disposition = /^content-disposition:\s*form-data;(.*)$/im.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/.exec(disposition)?.[1];
    if (name === undefined || ['__proto__', 'constructor', 'prototype'].includes(name)) return null;
    const filename = /\bfilename="([^"]*)"/.exec(disposition)?.[1];
    if (filename !== undefined) {
      const type = /^content-type:\s*(.+)$/im.exec(headers)?.[1]?.trim() ?? 'application/octet-stream';
      uploads[name] = { filename, contentType: type, data: Buffer.from(content) };
    } else fields[name] = content.toString('utf8');
    at = next;
  }
  return { fields, uploads };
}
