import { expect, test } from '@playwright/test';
import { PDFParse } from 'pdf-parse';
import { TERMS_SECTIONS, TERMS_TITLE } from '../../packages/contracts/src/terms';
import { BRAND } from '../helpers/app';

test('the terms page shows every section, without the app layout', async ({ page }) => {
  await page.goto('/terms_and_conditions');
  await expect(page).toHaveTitle(`${TERMS_TITLE} | ${BRAND}`);
  await expect(page.getByRole('heading', { level: 1, name: TERMS_TITLE })).toBeVisible();
  for (const section of TERMS_SECTIONS) {
    await expect(page.getByRole('heading', { level: 2, name: section.heading })).toBeVisible();
  }
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  await expect(page.getByTestId('bottom-tab-bar')).toHaveCount(0);
});

test('the PDF link downloads a PDF of the same terms text', async ({ page }) => {
  await page.goto('/terms_and_conditions');
  const link = page.getByRole('link', { name: 'Download as PDF' });
  await expect(link).toHaveAttribute('href', '/api/v1/common/terms.pdf');
  const href = (await link.getAttribute('href'))!;
  // No ID token and no app-check token: the PDF is public.
  const response = await page.request.get(href);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/pdf');
  const body = await response.body();
  expect(body.subarray(0, 5).toString()).toBe('%PDF-');

  const parser = new PDFParse({ data: new Uint8Array(body) });
  const text = (await parser.getText()).text.replace(/\s+/g, ' ');
  await parser.destroy();
  expect(text).toContain(TERMS_TITLE);
  for (const section of TERMS_SECTIONS) {
    expect(text).toContain(section.heading);
    for (const paragraph of section.paragraphs) expect(text).toContain(paragraph.replace(/\s+/g, ' '));
  }
});
