import type { StaffCatalogue } from '@kringle/contracts/staff';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiProblem } from '../../lib/api-error';
import type * as photoUpload from './photo-upload';
import { postPhotos } from './photo-upload';
import { PhotosPage } from './photos-page';

vi.mock('../run-sheet/use-run-sheet', () => ({ useRunSheet: () => ({ sheet: null }) }));
vi.mock('./photo-upload', async (importOriginal) => ({
  ...(await importOriginal<typeof photoUpload>()),
  postPhotos: vi.fn(),
}));

const LOCATION = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Kringle Sydney',
  timezone: 'Australia/Sydney',
} as StaffCatalogue['locations'][number];
const A = '00000000-0000-4000-8000-0000000000a1';
const B = '00000000-0000-4000-8000-0000000000b1';
const timedOut = () =>
  new ApiProblem({ status: 408, data: { error: 'The request took too long.', code: 'REQUEST_TIMEOUT' } });
const refused = () => new ApiProblem({ status: 413, data: { error: 'Too large.', code: 'PAYLOAD_TOO_LARGE' } });

/** Each request the page made: how many files, and the run it continued. */
const requests = () =>
  vi.mocked(postPhotos).mock.calls.map(([path, files]) => ({
    files: files.length,
    continueRunOf: new URL(path, 'http://x').searchParams.get('continueRunOf'),
  }));
const answer = (
  assigned: [string, number][],
  openRunOf: string | null,
  rejected: { file: string; code: string; message: string }[] = [],
) => ({
  assigned: assigned.map(([bookingId, count]) => ({ bookingId, count })),
  unmatched: [],
  openRunOf,
  rejected,
});

/** 101 photos: more than one request carries (100 files), so the sequence is cut in two. */
async function chooseSequence() {
  render(<PhotosPage location={LOCATION} target={null} onClearTarget={() => {}} />);
  const files = Array.from({ length: 101 }, (_, i) => new File(['x'], `IMG_${i}.jpg`, { type: 'image/jpeg' }));
  fireEvent.change(screen.getByLabelText('Photos (JPEG)'), { target: { files } });
  await userEvent.click(screen.getByRole('button', { name: 'Upload 101 photos' }));
}

describe('uploading a sequence in several requests', () => {
  beforeEach(() => vi.mocked(postPhotos).mockReset());

  it('names each file the API could not keep, and counts the rest as uploaded (issue 48 items 7, 8)', async () => {
    const bomb = {
      file: 'IMG_7.jpg',
      code: 'PAYLOAD_TOO_LARGE',
      message: 'IMG_7.jpg: 16000 × 16000 pixels (256 megapixels); at most 60 megapixels',
    };
    const cut = {
      file: 'IMG_100.jpg',
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'IMG_100.jpg: a JPEG that cannot be read to its end (truncated or damaged)',
    };
    vi.mocked(postPhotos)
      .mockResolvedValueOnce(answer([[A, 99]], A, [bomb]))
      .mockResolvedValueOnce(answer([], A, [cut]));
    await chooseSequence();
    const list = await screen.findByTestId('photos-rejected');
    await vi.waitFor(() => expect(list.querySelectorAll('li')).toHaveLength(2));
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual([bomb.message, cut.message]);
    expect(screen.getByRole('heading', { name: '2 files not kept (the others were)' })).toBeTruthy();
  });

  it(
    "continues each request from the family the one before ended with, and halves a request the API's timeout cut " +
      'off',
    async () => {
      vi.mocked(postPhotos)
        .mockRejectedValueOnce(timedOut())
        .mockResolvedValueOnce(answer([[A, 49]], A))
        .mockResolvedValueOnce(
          answer(
            [
              [A, 10],
              [B, 39],
            ],
            B,
          ),
        )
        .mockResolvedValueOnce(answer([[B, 1]], B));
      await chooseSequence();
      await vi.waitFor(() => expect(screen.getAllByText('Uploaded', { selector: 'span' })).toHaveLength(101));
      expect(requests()).toEqual([
        { files: 100, continueRunOf: null },
        { files: 50, continueRunOf: null },
        { files: 50, continueRunOf: A },
        { files: 1, continueRunOf: B },
      ]);
    },
  );

  it('after a refusal part-way, sends again only what was not kept, from where the sequence stood', async () => {
    vi.mocked(postPhotos)
      .mockRejectedValueOnce(timedOut())
      .mockResolvedValueOnce(answer([[A, 50]], A))
      .mockRejectedValueOnce(refused())
      // The next request cannot know whose photos open it: they wait unmatched.
      .mockResolvedValueOnce(answer([], null))
      .mockResolvedValueOnce(answer([[A, 50]], A));
    await chooseSequence();
    expect(await screen.findByText('50 photos not sent: Too large.')).toBeTruthy();
    await vi.waitFor(() => expect(requests()).toHaveLength(4));
    expect(requests()[3]).toEqual({ files: 1, continueRunOf: null });
    await userEvent.click(await screen.findByRole('button', { name: 'Try the failed ones again' }));
    await vi.waitFor(() => expect(screen.getAllByText('Uploaded', { selector: 'span' })).toHaveLength(101));
    expect(requests()[4]).toEqual({ files: 50, continueRunOf: A });
    expect(vi.mocked(postPhotos).mock.calls[4]![1].map((f) => f.name)).toEqual(
      Array.from({ length: 50 }, (_, i) => `IMG_${50 + i}.jpg`),
    );
  });
});
