import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  REPO_ROOT,
  withoutCode,
  declares,
  existsInRepo,
  looksLikePath,
  referencesOf,
  resolvePath,
  stringArrayOf,
} from './doc-references';

const read = (fromRoot: string) => readFileSync(path.join(REPO_ROOT, fromRoot), 'utf8');
const API_MODULES = stringArrayOf('eslint.config.js', 'API_MODULES');
const MODULE_FOLDERS = readdirSync(path.join(REPO_ROOT, 'apps/api/src/modules')).filter((name) =>
  statSync(path.join(REPO_ROOT, 'apps/api/src/modules', name)).isDirectory(),
);

describe('the page reader', () => {
  const modules = ['reservations', 'booking-lifecycle'];

  it('places paths by the conventions architecture.md states', () => {
    expect(resolvePath('apps/web/src/lib/api-fetch.ts', null, modules)).toBe('apps/web/src/lib/api-fetch.ts');
    expect(resolvePath('plugins/auth.ts', null, modules)).toBe('apps/api/src/plugins/auth.ts');
    expect(resolvePath('reservations/taken-sessions.ts', null, modules)).toBe(
      'apps/api/src/modules/reservations/taken-sessions.ts',
    );
    expect(resolvePath('transitions.ts', 'apps/api/src/modules/booking-lifecycle', modules)).toBe(
      'apps/api/src/modules/booking-lifecycle/transitions.ts',
    );
    expect(resolvePath('eslint.config.js', null, modules)).toBe('eslint.config.js');
    expect(resolvePath('modules/<m>/', null, modules)).toBe('apps/api/src/modules');
    expect(resolvePath('elsewhere/thing.ts', null, modules)).toBeNull();
    expect(['/api/v1/openapi.json', './.data', 'app.slotState', 'GET /x'].filter(looksLikePath)).toEqual([]);
  });

  it('attributes a name to the file beside it, in either order, and nothing else', () => {
    const page = [
      '- `booking-lifecycle/transitions.ts`: the transitions (`openCheckout`, `recordPayment`), and `other`.',
      '- calls `createReservation` (`reservations/reservations.service.ts`); `leadCutoffOf` and `x` in',
      '  `booking-policy.ts`; `HOLD_MINUTES` is a setting; `takeHold` (`apps/web/src/a.ts`, `b.ts`).',
    ].join('\n');
    const { symbols, paths } = referencesOf(page, 'docs/page.md', modules);
    expect(symbols.map((s) => `${s.name}@${s.file.resolved}`)).toEqual([
      'createReservation@apps/api/src/modules/reservations/reservations.service.ts',
      'leadCutoffOf@apps/api/src/modules/reservations/booking-policy.ts',
      'x@apps/api/src/modules/reservations/booking-policy.ts',
      'takeHold@apps/web/src/a.ts',
    ]);
    expect(paths.map((p) => p.resolved)).toContain('apps/web/src/b.ts');
    // The parenthesis after the first file starts with words, so the first bullet attributes nothing.
    const listed = referencesOf('`a/b.ts` (`one`, `two`) and `three`', 'docs/p.md', ['a']).symbols;
    expect(listed.map((s) => s.name)).toEqual(['one', 'two']);
  });
});

describe('docs/decisions', () => {
  const folder = 'docs/decisions';
  const records = readdirSync(path.join(REPO_ROOT, folder))
    .filter((name) => /^\d{4}-.+\.md$/.test(name))
    .sort();
  const numbers = new Set(records.map((name) => name.slice(0, 4)));
  const index = read(`${folder}/README.md`);
  const headOf = (name: string) => read(`${folder}/${name}`).split(/^## /m)[0] ?? '';
  const STATUS = /^Status: (proposed|accepted|superseded|deprecated)\b(.*)$/m;

  it('has the template and the records it numbers', () => {
    expect(existsInRepo(`${folder}/TEMPLATE.md`)).toBe(true);
    expect(records.length).toBeGreaterThan(80);
  });

  it.each(records)('%s opens with a status line', (name) => {
    const status = STATUS.exec(headOf(name));
    expect(
      status,
      `${name}: no "Status: proposed|accepted|superseded|deprecated" line before its first section`,
    ).not.toBeNull();
    if (status?.[1] === 'superseded') expect(status[2], `${name}: superseded by which record?`).toMatch(/by \[?\d{4}/);
  });

  it.each(records)('%s is in the index with its status', (name) => {
    const entry = index.split('\n').find((line) => line.includes(`](${name})`));
    expect(entry, `${name} is not linked from ${folder}/README.md`).toBeDefined();
    const status = STATUS.exec(headOf(name))?.[1];
    expect(entry, `${name}: the index entry should start "- ${name.slice(0, 4)} [" and say (${status})`).toMatch(
      new RegExp(`^- ${name.slice(0, 4)} \\[.+\\]\\(${name}\\) \\(${status}[),;]`),
    );
  });

  it('links only records that exist', () => {
    const linked = [...withoutCode(index).matchAll(/\]\(([^)#]+)\)/g)].map((m) => m[1] ?? '');
    const missing = linked.filter((target) => !existsInRepo(path.posix.join(folder, target)));
    expect(missing, 'the index links files that do not exist').toEqual([]);
  });

  it.each(records)('%s names only records that exist, and each says so of the other', (name) => {
    const relations: Array<[RegExp, string]> = [
      [/^Superseded by: (.*)$/gm, 'Supersedes'],
      [/^Supersedes: (.*)$/gm, 'Superseded by'],
      [/^Amended by: (.*)$/gm, 'Amends'],
      [/^Amends: (.*)$/gm, 'Amended by'],
      [/^Status: .*superseded by (.*)$/gm, 'Supersedes'],
    ];
    const head = headOf(name);
    for (const [pattern, reverse] of relations) {
      for (const line of head.matchAll(pattern)) {
        for (const [, other] of (line[1] ?? '').matchAll(/\[(\d{4})\]/g)) {
          const target = records.find((r) => r.startsWith(`${other}-`));
          expect(target, `${name} names ${other}, which is not a record`).toBeDefined();
          expect(
            headOf(target!),
            `${target} should say "${reverse}: [${name.slice(0, 4)}](${name})" under its status`,
          ).toMatch(new RegExp(`^${reverse}: .*\\[${name.slice(0, 4)}\\]`, 'm'));
        }
      }
    }
    expect(numbers.size).toBe(records.length);
  });
});

describe('docs/architecture.md', () => {
  const page = 'docs/architecture.md';
  const markdown = read(page);
  const refs = referencesOf(markdown, page, MODULE_FOLDERS);

  it('names only paths that exist', () => {
    const unplaced = refs.paths.filter((p) => !p.resolved).map((p) => `line ${p.line}: \`${p.written}\``);
    expect(unplaced, 'paths the page conventions cannot place (write them from the root)').toEqual([]);
    const missing = [...refs.paths, ...refs.links]
      .filter((p) => p.resolved && !existsInRepo(p.resolved))
      .map((p) => `line ${p.line}: \`${p.written}\` (${p.resolved})`);
    expect(missing, 'paths that do not exist').toEqual([]);
    expect(refs.paths.length).toBeGreaterThan(100);
  });

  it('attributes each function or constant to a file that declares it', () => {
    const wrong = refs.symbols
      .filter((s) => s.file.resolved && existsInRepo(s.file.resolved) && !declares(s.file.resolved, s.name))
      .map((s) => `line ${s.file.line}: \`${s.name}\` is not declared in ${s.file.resolved}`);
    expect(wrong).toEqual([]);
    expect(refs.symbols.length).toBeGreaterThan(60);
  });

  it('states the modules in the order of API_MODULES, every module folder among them', () => {
    const stated = /`API_MODULES` in `eslint.config.js` gives \(([^)]*)\)/.exec(markdown)?.[1] ?? '';
    const order = [...stated.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]);
    expect(order, 'the order docs/architecture.md states beside `API_MODULES`').toEqual(API_MODULES);
    expect(MODULE_FOLDERS.filter((name) => !API_MODULES.includes(name))).toEqual([]);
  });
});

describe('docs/testing.md', () => {
  const markdown = read('docs/testing.md');
  const testFiles = (folder: string): string[] =>
    readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.test\.tsx?$|\.spec\.ts$/.test(file) && !file.includes('node_modules'))
      .map((file) => path.posix.join(folder, file));
  const everyTest = ['apps', 'packages', 'e2e/tests'].flatMap(testFiles);

  // Its own convention: `src/...` is apps/api's, another relative path is under apps/api/test/, and
  // a bare test file's name must be one file of the suites. Build outputs it names are not checked.
  it('names only test files and folders that exist', () => {
    const missing: string[] = [];
    for (const [, token] of markdown.matchAll(/`([^`\s]+)`/g)) {
      if (!token || /[<{*~]/.test(token) || token.includes('://') || /^(\/|\.(?!\.\/))/.test(token)) continue;
      if (token.startsWith('../')) {
        missing.push(`${token} (name it from apps/api/test/, not from another folder)`);
        continue;
      }
      const testFile = /\.(test|spec)\.tsx?$/.test(token);
      if (!token.includes('/')) {
        if (testFile && !everyTest.some((file) => file.endsWith(`/${token}`))) missing.push(token);
        continue;
      }
      const first = token.split('/')[0] ?? '';
      const resolved = ['apps', 'packages', 'e2e', 'bench', 'docs', 'tools', 'ops'].includes(first)
        ? token
        : first === 'src'
          ? `apps/api/${token}`
          : `apps/api/test/${token}`;
      const aboutTests =
        testFile || first === 'src' || /^(apps\/[^/]+\/(test|src)|e2e|packages\/[^/]+\/src)\//.test(token);
      if (aboutTests && !existsInRepo(resolved)) missing.push(`${token} (${resolved})`);
    }
    expect(missing).toEqual([]);
  });
});
