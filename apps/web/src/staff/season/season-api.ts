import type { z } from 'zod';
import type { seasonSchema } from '@kringle/contracts/season';
import type { SeasonPreview, SeasonSaved } from '@kringle/contracts/season-editor';
import { downloadFile, request, requestJson } from '../session/staff-client';

/** The season file as it is written (API.md: the editor edits the file itself, decision 0056). */
export type SeasonFile = z.input<typeof seasonSchema>;
export type SeasonFileLocation = SeasonFile['locations'][number];

export async function getSeason(): Promise<{ file: SeasonFile; etag: string }> {
  const res = await request('/staff/season');
  return { file: (await res.json()) as SeasonFile, etag: res.headers.get('etag') ?? '' };
}

export const previewSeason = (file: SeasonFile) =>
  requestJson<SeasonPreview>('/staff/season/preview', { method: 'POST', body: JSON.stringify(file) });

export async function saveSeason(file: SeasonFile, etag: string): Promise<{ saved: SeasonSaved; etag: string }> {
  const res = await request('/staff/season', {
    method: 'PUT',
    body: JSON.stringify(file),
    headers: { 'if-match': etag },
  });
  return { saved: (await res.json()) as SeasonSaved, etag: res.headers.get('etag') ?? etag };
}

/** The live version, as the file season:load reads. */
export const downloadSeason = (etag: string) =>
  downloadFile(`/staff/season/versions/${etag.replace(/\D/g, '')}`, 'application/json', 'season.json');
