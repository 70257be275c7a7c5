import { newId, unixNow } from './ids';
import type { Upload } from './multipart';
import type { ParamsReader } from './params-reader';
import type { SandboxState } from './sandbox-state';
import type { StripeFile } from './stripe-objects';
import { invalidParam, noSuchResource, StripeError } from './stripe-errors';

/** Purposes this sandbox takes: what Kringle uploads (dispute evidence). */
const PURPOSES = ['dispute_evidence'] as const;
/** Stripe's limit for a dispute evidence file (and for the whole submission, 4.5 MB, not modelled). */
const MAX_BYTES = 5 * 1024 * 1024;
/** The types Stripe takes as dispute evidence, told by their first bytes as Stripe does. */
const SIGNATURES: [type: string, magic: number[]][] = [
  ['pdf', [0x25, 0x50, 0x44, 0x46]],
  ['png', [0x89, 0x50, 0x4e, 0x47]],
  ['jpg', [0xff, 0xd8, 0xff]],
];
const DAY_S = 86_400;

/** `POST /v1/files`: multipart, a `purpose` and a `file`. */
export function createFile(state: SandboxState, p: ParamsReader, upload: Upload | undefined, url: string): StripeFile {
  const purpose = p.string('purpose', { required: true });
  if (!(PURPOSES as readonly string[]).includes(purpose!))
    throw invalidParam('purpose', `Invalid purpose: must be one of ${PURPOSES.join(', ')}`);
  if (!upload) throw invalidParam('file', 'Missing required param: file.');
  if (upload.data.length === 0 || upload.data.length > MAX_BYTES)
    throw invalidParam('file', `The file must be between 1 byte and ${MAX_BYTES} bytes.`);
  const type = SIGNATURES.find(([, magic]) => magic.every((b, i) => upload.data[i] === b))?.[0];
  if (!type)
    throw new StripeError({
      status: 400,
      type: 'invalid_request_error',
      param: 'file',
      message: 'Dispute evidence must be a PDF, JPEG or PNG file.',
    });
  const id = newId('file');
  const created = unixNow();
  const file: StripeFile = {
    id,
    object: 'file',
    created,
    // Stripe keeps dispute evidence for a year and more; the sandbox says a year.
    expires_at: created + 365 * DAY_S,
    filename: upload.filename,
    links: { object: 'list', data: [], has_more: false, url: `/v1/file_links?file=${id}` },
    purpose: 'dispute_evidence',
    size: upload.data.length,
    title: null,
    type,
    url: `${url}/v1/files/${id}/contents`,
  };
  state.files.set(id, { file, data: upload.data.toString('base64') });
  return file;
}

export function getFile(state: SandboxState, id: string): StripeFile {
  const stored = state.files.get(id);
  if (!stored) throw noSuchResource('file', id);
  return stored.file;
}

export function fileContents(state: SandboxState, id: string): Buffer {
  const stored = state.files.get(id);
  if (!stored) throw noSuchResource('file', id);
  return Buffer.from(stored.data, 'base64');
}
