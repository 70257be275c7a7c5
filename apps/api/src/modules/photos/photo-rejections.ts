import type { RejectedPhoto } from '@kringle/contracts/photos';
import { errors } from '../../lib/errors';
import { RejectedPhotoError } from './photo-processing';

/**
 * One file of an upload that cannot be kept does not lose the rest (issue 48 items 7 and 8): it is
 * reported by name in the answer's `rejected`, and the others are stored as usual. A request whose
 * every file is rejected keeps nothing and answers the first rejection's 4xx naming them all.
 */
export async function orRejected<T>(name: string, work: () => Promise<T>): Promise<T | { rejected: RejectedPhoto }> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof RejectedPhotoError)
      return { rejected: { file: name, code: e.code, message: `${name}: ${e.message}` } };
    throw e;
  }
}

export const isRejected = (v: object): v is { rejected: RejectedPhoto } => 'rejected' in v;

/** 415 (unreadable) or 413 (too many pixels) when no file of the request could be kept, each named in the details. */
export function noneKept(rejected: RejectedPhoto[]) {
  const first = rejected[0]!;
  const message =
    rejected.length === 1
      ? `${first.message}. Nothing was uploaded.`
      : `None of the ${rejected.length} photos could be kept ` +
        `(${rejected.map((r) => r.file).join(', ')}). Nothing was uploaded.`;
  return errors.photosNotKept(
    first.code,
    message,
    rejected.map((r) => ({ path: 'body.files', message: r.message })),
  );
}
