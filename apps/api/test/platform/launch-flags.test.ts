import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The API's Node flags live in apps/api's `start` script (`npm start`; the benches read them from
 * there). Production's command in docs/deploy.md must carry the same ones: the young generation's
 * size (decision 0077) is part of what the read budgets were measured with.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const flagsOf = (command: string) => /\bnode ((?:--\S+ )*)dist\/start\.mjs/.exec(command)?.[1]?.trim().split(' ');

describe('the API runs with the same Node flags everywhere', () => {
  it('keeps the young generation pinned in npm start and in the production command', () => {
    const start = (
      JSON.parse(fs.readFileSync(path.join(ROOT, 'apps/api/package.json'), 'utf8')) as { scripts: { start: string } }
    ).scripts.start;
    const npmStart = flagsOf(start);
    expect(npmStart).toContain('--min-semi-space-size=32');
    const deploy = fs.readFileSync(path.join(ROOT, 'docs/deploy.md'), 'utf8');
    const production = deploy.split('\n').filter((line) => line.includes('dist/start.mjs') && /\bnode --/.test(line));
    expect(production.length).toBeGreaterThan(0);
    for (const line of production) expect(flagsOf(line), line).toEqual(npmStart);
  });
});
