// Breaks lines over 120 characters that Prettier leaves alone: comments (re-flowed), string literals
// (split with +), template literals (split between parts), sql`` text (a newline at a space).
// Usage (from the repo root): node tools/format/wrap-long-lines.mjs <files...>; run Prettier afterwards.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(process.cwd() + '/');
const ts = require('typescript');
const MAX = 120;
const files = process.argv.slice(2);
let changed = 0;

function wrapWords(text, width) {
  const words = text.split(/ +/);
  const lines = [];
  let cur = '';
  for (const w of words) {
    if (cur && (cur + ' ' + w).length > width) {
      lines.push(cur);
      cur = w;
    } else cur = cur ? cur + ' ' + w : w;
  }
  if (cur) lines.push(cur);
  return lines;
}

// Comments: a long `//` line or ` * ` line is split at a word boundary; the rest joins the next line when that
// line continues the same paragraph (same prefix, not a list item, not blank), so paragraphs stay even.
function fixComments(lines) {
  let did = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.length <= MAX) continue;
    let m = /^(\s*)(\/\/ ?|\* ?|\/\*\* ?)(.*)$/.exec(line);
    if (!m) continue;
    let [, indent, marker, body] = m;
    let closing = '';
    if (marker.startsWith('/**')) {
      if (!body.endsWith('*/')) continue;
      // A one-line JSDoc becomes a block.
      body = body.slice(0, -2).trimEnd();
      const parts = wrapWords(body, MAX - indent.length - 3);
      lines.splice(i, 1, `${indent}/**`, ...parts.map((p) => `${indent} * ${p}`), `${indent} */`);
      did = true;
      continue;
    }
    if (marker.startsWith('*') && body.endsWith('*/')) {
      closing = ' */';
      body = body.slice(0, -2).trimEnd();
    }
    if (/https?:\/\/\S{40,}/.test(body) && !/ /.test(body.replace(/https?:\/\/\S+/, ''))) continue;
    const prefix = indent + (marker.startsWith('//') ? '// ' : ' * ');
    const list = /^(- |\d+\. |\* )/.exec(body);
    const hang = list ? ' '.repeat(list[0].length) : '';
    const width = MAX - prefix.length;
    const parts = wrapWords(body, width);
    if (parts.length < 2) continue;
    const first = parts[0];
    let rest = parts.slice(1).join(' ');
    const next = lines[i + 1];
    const nextM = next !== undefined && !closing ? /^(\s*)(\/\/ |\* )(.*)$/.exec(next) : null;
    const joinable =
      nextM &&
      nextM[1] + nextM[2] === prefix &&
      nextM[3].trim() !== '' &&
      !/^(- |\d+\. |\* |@|```|\||#)/.test(nextM[3]) &&
      !/^\s/.test(nextM[3].slice(hang.length ? 0 : 0, 0)) &&
      (hang ? nextM[3].startsWith(hang) : !/^\s/.test(nextM[3]));
    if (joinable && !closing) {
      const nextBody = hang ? nextM[3].slice(hang.length) : nextM[3];
      lines.splice(i, 2, prefix + first, prefix + hang + rest + ' ' + nextBody);
    } else {
      lines.splice(i, 1, prefix + first, prefix + hang + rest + closing);
    }
    did = true;
    i--; // the split line may itself be long: look again
  }
  return did;
}

// Edits ({ pos, del, ins }) applied from the end, so each position still means the original text's.
function applyEdits(text, edits) {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.pos - a.pos))
    out = out.slice(0, e.pos) + e.ins + out.slice(e.pos + e.del);
  return out;
}

function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

// A split point in [from, to) of the source: the last space before the line's limit, else the first after.
function splitPointIn(text, from, to, lineStart) {
  const limit = lineStart + MAX - 4;
  for (let p = Math.min(to - 1, limit); p > from + 10; p--) if (text[p] === ' ' && text[p - 1] !== '\\') return p + 1;
  for (let p = Math.max(from + 10, Math.min(to - 1, limit) + 1); p < to - 10; p++)
    if (text[p] === ' ' && text[p - 1] !== '\\') return p + 1;
  return -1;
}

function fixStrings(text, file) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? 4 : 3);
  const starts = lineStarts(text);
  const longLines = new Set();
  starts.forEach((s, i) => {
    const e = i + 1 < starts.length ? starts[i + 1] - 1 : text.length;
    if (e - s > MAX) longLines.add(i);
  });
  if (!longLines.size) return text;
  const edits = [];
  const lineOf = (pos) => sf.getLineAndCharacterOfPosition(pos).line;
  const visit = (node) => {
    const start = node.getStart(sf);
    const line = lineOf(start);
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      longLines.has(line) &&
      lineOf(node.end) === line
    ) {
      const p = node.parent;
      const exprPosition =
        !ts.isImportDeclaration(p) &&
        !ts.isExportDeclaration(p) &&
        !ts.isLiteralTypeNode(p) &&
        !ts.isExternalModuleReference(p) &&
        !(ts.isPropertyAssignment(p) && p.name === node) &&
        !(ts.isPropertySignature(p) && p.name === node) &&
        !ts.isTaggedTemplateExpression(p) &&
        !ts.isModuleDeclaration(p) &&
        !(ts.isCallExpression(p) && /require|mock|import|InlineSnapshot|^import$/i.test(p.expression.getText(sf))) &&
        !(ts.isAsExpression(p) && p.type.getText(sf) === 'const');
      const jsxAttr = ts.isJsxAttribute(p);
      if ((exprPosition || jsxAttr) && node.end - start > 30) {
        const at = splitPointIn(text, start + 1, node.end - 1, starts[line]);
        if (at > 0) {
          const q = text[start];
          if (jsxAttr) {
            edits.push({ pos: start, del: 0, ins: '{' });
            edits.push({ pos: at, del: 0, ins: `${q} + ${q}` });
            edits.push({ pos: node.end, del: 0, ins: '}' });
          } else edits.push({ pos: at, del: 0, ins: `${q} +\n${q}` });
          return;
        }
      }
    }
    const inSnapshot =
      !!node.parent && ts.isCallExpression(node.parent) && /InlineSnapshot/.test(node.parent.expression.getText(sf));
    if (ts.isTemplateExpression(node) && !inSnapshot && longLines.has(lineOf(node.getStart(sf)))) {
      const tagged = ts.isTaggedTemplateExpression(node.parent);
      const tag = tagged ? node.parent.tag.getText(sf) : '';
      const parts = [node.head, ...node.templateSpans.map((s) => s.literal)];
      for (const part of parts) {
        const ps = part.getStart(sf);
        const pl = lineOf(ps);
        if (!longLines.has(pl) || lineOf(part.end) !== pl) continue;
        // The literal text of this part, without its `, ${ or } delimiters.
        const from = ps + 1;
        const to = part.end - (ts.isTemplateTail(part) ? 1 : 2);
        if (to - from < 20) continue;
        const at = splitPointIn(text, from, to, starts[pl]);
        if (at < 0) continue;
        if (tagged) {
          if (/sql/i.test(tag)) edits.push({ pos: at - 1, del: 1, ins: '\n' });
        } else if (!ts.isTaggedTemplateExpression(node.parent)) edits.push({ pos: at, del: 0, ins: '` +\n`' });
        longLines.delete(pl);
        break;
      }
    }
    if (ts.isNoSubstitutionTemplateLiteral(node) && ts.isTaggedTemplateExpression(node.parent)) {
      const tag = node.parent.tag.getText(sf);
      const line = lineOf(node.getStart(sf));
      if (/sql/i.test(tag) && longLines.has(line) && lineOf(node.end) === line) {
        const at = splitPointIn(text, node.getStart(sf) + 1, node.end - 1, starts[line]);
        if (at > 0) edits.push({ pos: at - 1, del: 1, ins: '\n' });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (!edits.length) return text;
  return applyEdits(text, edits);
}

const SQLISH = /^\s*(select|insert|update|delete|with|create|alter|drop|grant|revoke|do|begin|set|lock)\b/i;

// Long lines inside SQL text (sql``, or a plain template whose text starts like SQL): a newline at a space of the
// literal text (never inside quotes or ${}); SQL does not care.
function fixSqlText(text, file) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? 4 : 3);
  const starts = lineStarts(text);
  const ranges = [];
  const visit = (node) => {
    const isTpl = ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node);
    if (isTpl) {
      const tagged = ts.isTaggedTemplateExpression(node.parent) && node.parent.template === node;
      const tag = tagged ? node.parent.tag.getText(sf) : '';
      const first = ts.isTemplateExpression(node) ? node.head.text : node.text;
      const sqlish = tagged ? /(^|\.)sql(<.*>)?$/i.test(tag) || /\bsql\b/.test(tag) : SQLISH.test(first);
      if (sqlish) {
        if (ts.isNoSubstitutionTemplateLiteral(node)) ranges.push([node.getStart(sf) + 1, node.end - 1]);
        else
          for (const part of [node.head, ...node.templateSpans.map((x) => x.literal)]) {
            const ps = part.getStart(sf);
            ranges.push([ps + 1, part.end - (ts.isTemplateTail(part) ? 1 : 2)]);
          }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (!ranges.length) return text;
  const edits = [];
  starts.forEach((ls, i) => {
    const le = i + 1 < starts.length ? starts[i + 1] - 1 : text.length;
    if (le - ls <= MAX) return;
    const cands = [];
    const firstCode = ls + /^\s*/.exec(text.slice(ls, le))[0].length;
    for (const [a, b] of ranges) {
      if (b <= ls || a >= le) continue;
      for (let p = Math.max(a, ls); p < Math.min(b, le); p++) {
        if (text[p] !== ' ' || p <= firstCode) continue;
        const before = text.slice(Math.max(a, ls), p);
        if ((before.match(/'/g) || []).length % 2) continue;
        if (text.slice(ls, p).includes('--')) continue;
        cands.push(p);
      }
    }
    if (!cands.length) return;
    const limit = ls + MAX - 1;
    const ok = cands.filter((p) => p < limit);
    const p = ok.length ? ok[ok.length - 1] : cands[0];
    if (p - ls < 20) return;
    const indent = /^\s*/.exec(text.slice(ls, le))[0];
    edits.push({ pos: p, del: 1, ins: '\n' + indent + (indent.length ? '' : '  ') });
  });
  return applyEdits(text, edits);
}

// Template literals the passes above leave long: a break at a space of the literal text or just before a `${`.
// A one-line template becomes two joined by + (in parentheses where + would bind otherwise); a line inside a
// multi-line template gets a line continuation (a backslash before the newline), which the cooked value drops.
function fixTemplates(text, file) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? 4 : 3);
  const starts = lineStarts(text);
  const lineOf = (pos) => sf.getLineAndCharacterOfPosition(pos).line;
  const lineEnd = (i) => (i + 1 < starts.length ? starts[i + 1] - 1 : text.length);
  const long = new Set();
  starts.forEach((ls, i) => lineEnd(i) - ls > MAX && long.add(i));
  if (!long.size) return text;
  const edits = [];
  const SAFE = [
    ts.SyntaxKind.VariableDeclaration,
    ts.SyntaxKind.PropertyAssignment,
    ts.SyntaxKind.ReturnStatement,
    ts.SyntaxKind.ArrowFunction,
    ts.SyntaxKind.ArrayLiteralExpression,
    ts.SyntaxKind.TemplateSpan,
    ts.SyntaxKind.ParenthesizedExpression,
    ts.SyntaxKind.JsxExpression,
    ts.SyntaxKind.ExpressionStatement,
  ];
  const safeIn = (node) => {
    const p = node.parent;
    if (SAFE.includes(p.kind)) return true;
    if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression !== node) return true;
    if (ts.isConditionalExpression(p) && p.condition !== node) return true;
    if (ts.isBinaryExpression(p)) {
      const op = p.operatorToken.kind;
      const K = ts.SyntaxKind;
      if (op === K.PlusToken) return p.left === node || false;
      return [
        K.QuestionQuestionToken,
        K.BarBarToken,
        K.AmpersandAmpersandToken,
        K.EqualsToken,
        K.PlusEqualsToken,
        K.EqualsEqualsEqualsToken,
        K.ExclamationEqualsEqualsToken,
      ].includes(op);
    }
    return false;
  };
  const visit = (node) => {
    const isTpl = ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node);
    const inSnapshot =
      !!node.parent && ts.isCallExpression(node.parent) && /InlineSnapshot/.test(node.parent.expression.getText(sf));
    if (isTpl && node.parent && !ts.isTaggedTemplateExpression(node.parent) && !inSnapshot) {
      const first = lineOf(node.getStart(sf));
      const last = lineOf(node.end);
      const parts = ts.isTemplateExpression(node) ? [node.head, ...node.templateSpans.map((x) => x.literal)] : [node];
      for (let li = first; li <= last; li++) {
        if (!long.has(li)) continue;
        const ls = starts[li];
        const le = lineEnd(li);
        const indent = /^\s*/.exec(text.slice(ls, le))[0].length;
        const cands = [];
        for (const part of parts) {
          const a = part.getStart(sf) + 1;
          const b = part.end - (ts.isTemplateTail(part) || ts.isNoSubstitutionTemplateLiteral(part) ? 1 : 2);
          for (let q = Math.max(a, ls); q <= Math.min(b, le); q++) {
            const atSpace = q < b && text[q] === ' ' && text[q - 1] !== '\\';
            const beforeSubst = q === b && b < part.end - 1 && q > a;
            if (atSpace) cands.push(q + 1);
            else if (beforeSubst) cands.push(q);
          }
        }
        const ok = cands.filter((q) => q - ls <= MAX - 4 && q - ls > indent + 10);
        const at = ok.length ? ok[ok.length - 1] : cands.find((q) => q - ls > indent + 10);
        if (at === undefined || (first === last && le - at < 8)) continue;
        if (first === last) {
          const wrap = !safeIn(node);
          if (wrap) edits.push({ pos: node.getStart(sf), del: 0, ins: '(' });
          edits.push({ pos: at, del: 0, ins: '` +\n`' });
          if (wrap) edits.push({ pos: node.end, del: 0, ins: ')' });
          long.delete(li);
          break;
        }
        // Lines of one multi-line template break independently.
        edits.push({ pos: at, del: 0, ins: '\\\n' });
        long.delete(li);
      }
      if (first === last) return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (!edits.length) return text;
  return applyEdits(text, edits);
}

for (const file of files) {
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n');
  fixComments(lines);
  let out = lines.join('\n');
  if (/\.(ts|tsx|mjs|js)$/.test(file)) out = fixTemplates(fixSqlText(fixStrings(out, file), file), file);
  if (out !== text) {
    fs.writeFileSync(file, out);
    changed++;
  }
}
console.log(`${changed} of ${files.length} files changed`);
