import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Reads what a Markdown page says about the repository: the paths it names in backticks and links,
 * and the functions or constants it attributes to a file. The conventions are the ones
 * docs/architecture.md states at its top; docs.test.ts checks every reference against the tree.
 */

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** Folders named from the repository root. */
const ROOT_FOLDERS = ['apps', 'packages', 'bench', 'e2e', 'tools', 'ops', 'docs'];
/** Folders of apps/api/src named without that prefix. */
const API_SRC_FOLDERS = ['cli', 'config', 'db', 'dev', 'jobs', 'lib', 'modules', 'plugins', 'types'];
const FILE_EXTENSIONS = /\.(ts|tsx|js|mjs|cjs|json|sql|md|html|yaml|yml|conf|sh|css|template)$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export interface PathRef {
  /** As written in the page. */
  written: string;
  /** From the repository root; null when the page's conventions cannot place it. */
  resolved: string | null;
  line: number;
}

export interface SymbolRef {
  name: string;
  file: PathRef;
}

export interface PageRefs {
  paths: PathRef[];
  links: PathRef[];
  symbols: SymbolRef[];
}

/** The blocks a page's rules count within: each bullet, table row and paragraph; code fences left out. */
export function blocksOf(markdown: string): Array<{ text: string; line: number }> {
  const blocks: Array<{ text: string; line: number }> = [];
  let current: { text: string; line: number } | null = null;
  let fenced = false;
  markdown.split('\n').forEach((raw, i) => {
    if (raw.trimStart().startsWith('```')) {
      fenced = !fenced;
      current = null;
      return;
    }
    if (fenced) return;
    const starts = /^\s*([-*]|\d+\.)\s/.test(raw) || raw.startsWith('|') || raw.startsWith('#');
    if (raw.trim() === '' || starts || !current) {
      current = raw.trim() === '' ? null : { text: raw, line: i + 1 };
      if (current) blocks.push(current);
      if (raw.startsWith('|') || raw.startsWith('#')) current = null;
      return;
    }
    current.text += `\n${raw}`;
  });
  return blocks;
}

const isDir = (fromRoot: string) =>
  existsSync(path.join(REPO_ROOT, fromRoot)) && statSync(path.join(REPO_ROOT, fromRoot)).isDirectory();

export const looksLikePath = (token: string) =>
  !/\s/.test(token) &&
  !token.startsWith('/') &&
  !token.startsWith('.') &&
  !token.includes('://') &&
  (token.includes('/') || FILE_EXTENSIONS.test(token));

/** The part of a path before a placeholder (`modules/<m>/`, `app-check*.ts`): what must exist. */
const beforePlaceholder = (written: string) => {
  const at = written.search(/[<{*]/);
  return at === -1 ? written : written.slice(0, written.lastIndexOf('/', at) + 1);
};

/**
 * Where a path in backticks is, by the page's conventions: `apps/...` and the other root folders
 * from the root; `plugins/...`, `modules/...` and apps/api/src's other folders under apps/api/src;
 * `reservations/...` (a module's name) under apps/api/src/modules; a bare file name in the folder of
 * the path named last before it in the same block, else at the root.
 */
export function resolvePath(written: string, folderBefore: string | null, modules: string[]): string | null {
  const bare = beforePlaceholder(written).replace(/\/$/, '');
  const first = bare.split('/')[0] ?? '';
  if (!bare.includes('/') && !written.includes('/')) return path.posix.join(folderBefore ?? '', bare);
  if (ROOT_FOLDERS.includes(first)) return bare;
  if (API_SRC_FOLDERS.includes(first)) return `apps/api/src/${bare}`;
  if (modules.includes(first)) return `apps/api/src/modules/${bare}`;
  return null;
}

const folderOf = (resolved: string) => (isDir(resolved) ? resolved : path.posix.dirname(resolved));

/** Every backticked path, link and attributed symbol of a page. */
export function referencesOf(markdown: string, pageFromRoot: string, modules: string[]): PageRefs {
  const refs: PageRefs = { paths: [], links: [], symbols: [] };
  for (const block of blocksOf(markdown)) {
    let folderBefore: string | null = null;
    // Code spans in order, each with where it ends, so the text between them can be read.
    const spans = [...block.text.matchAll(/`([^`\n]+)`/g)].map((m) => ({
      token: m[1] ?? '',
      start: m.index,
      end: m.index + m[0].length,
      path: null as PathRef | null,
    }));
    for (const span of spans) {
      if (!looksLikePath(span.token)) continue;
      const line = block.line + block.text.slice(0, span.start).split('\n').length - 1;
      span.path = { written: span.token, resolved: resolvePath(span.token, folderBefore, modules), line };
      refs.paths.push(span.path);
      if (span.path.resolved) folderBefore = folderOf(span.path.resolved);
    }
    const between = (a: number, b: number) => block.text.slice(spans[a]!.end, spans[b]!.start);
    const isFile = (p: PathRef | null): p is PathRef => !!p && FILE_EXTENSIONS.test(p.written);
    spans.forEach((span, i) => {
      // `file.ts` (`a`, `b`): the names in the parenthesis right after a file, up to the next path.
      if (isFile(span.path) && /^\s*\($/.test(block.text.slice(span.end, spans[i + 1]?.start ?? span.end))) {
        for (let j = i + 1; j < spans.length && !spans[j]!.path; j++) {
          if (j > i + 1 && between(j - 1, j).includes(')')) break;
          if (IDENTIFIER.test(spans[j]!.token)) refs.symbols.push({ name: spans[j]!.token, file: span.path });
        }
      }
      // `a`, `b` and `c` in `file.ts`, and `a` (`file.ts`): names right before a file.
      const next = spans[i + 1];
      if (!IDENTIFIER.test(span.token) || !next) return;
      const joined = (a: number) => IDENTIFIER.test(spans[a]!.token) && /^\s*(,|and|or|\/)\s*$/.test(between(a, a + 1));
      let j = i;
      while (j + 1 < spans.length && IDENTIFIER.test(spans[j + 1]!.token) && joined(j)) j++;
      const after = spans[j + 1];
      if (!after || !isFile(after.path) || !/^\s*(in|\()\s*$/.test(between(j, j + 1))) return;
      if (i > 0 && joined(i - 1)) return; // taken with the name before it
      for (let k = i; k <= j; k++) refs.symbols.push({ name: spans[k]!.token, file: after.path });
    });
  }
  for (const m of withoutCode(markdown).matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = (m[1] ?? '').split('#')[0] ?? '';
    if (!target || /^[a-z]+:/.test(target)) continue;
    const line = markdown.slice(0, m.index).split('\n').length;
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(pageFromRoot), target));
    refs.links.push({ written: m[1] ?? '', resolved: resolved.startsWith('..') ? null : resolved, line });
  }
  return refs;
}

/** The page with its code spans blanked (same length), so an example link in one is not read as a link. */
export const withoutCode = (markdown: string) => markdown.replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length));

export const existsInRepo = (fromRoot: string) => existsSync(path.join(REPO_ROOT, fromRoot));

/** Whether a file declares a name: a function, class, type, variable, a re-export, or a member. */
export function declares(fromRoot: string, name: string): boolean {
  const source = readFileSync(path.join(REPO_ROOT, fromRoot), 'utf8');
  const n = name.replace(/\$/g, '\\$');
  if (fromRoot.endsWith('.sql')) return new RegExp(`\\b${n}\\b`).test(source);
  return [
    new RegExp(`\\b(function\\*?|const|let|var|class|interface|type|enum)\\s+${n}\\b`),
    new RegExp(`export\\s*(type\\s*)?\\{[^}]*\\b${n}\\b`),
    new RegExp(`^\\s*((public|private|protected|readonly|static|async|get|set)\\s+)*${n}\\??\\s*[(:=<]`, 'm'),
  ].some((pattern) => pattern.test(source));
}

/** The string literals of `const NAME = [ ... ]` in a source file, in order. */
export function stringArrayOf(fromRoot: string, name: string): string[] {
  const source = readFileSync(path.join(REPO_ROOT, fromRoot), 'utf8');
  const body = new RegExp(`const ${name} = \\[([\\s\\S]*?)\\];`).exec(source)?.[1];
  if (!body) throw new Error(`${fromRoot} has no const ${name} = [...]`);
  return [...body.replace(/\/\/.*$/gm, '').matchAll(/'([^']+)'/g)].map((m) => m[1] ?? '');
}
