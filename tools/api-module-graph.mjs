#!/usr/bin/env node
/**
 * The API modules' picture (issue 15, decision 0031): reads madge's file graph on stdin and prints
 * one line per arrow between modules, then any arrow that runs against the order in
 * eslint.config.js (API_MODULES). Run from the repository root:
 * npx -y madge@8 --json --extensions ts --ts-config apps/api/tsconfig.json apps/api/src/modules | node
 * tools/api-module-graph.mjs
 */
import fs from 'node:fs';

const graph = JSON.parse(fs.readFileSync(0, 'utf8'));
const moduleOf = (file) => /^([^/]+)\//.exec(file)?.[1] ?? null;
const arrows = new Map();
for (const [from, targets] of Object.entries(graph)) {
  if (from.endsWith('.test.ts')) continue;
  for (const to of targets) {
    const [a, b] = [moduleOf(from), moduleOf(to)];
    if (a && b && a !== b && a !== '..' && b !== '..') arrows.set(`${a} -> ${b}`, [a, b]);
  }
}
const lines = [...arrows.keys()].sort();
console.log(lines.join('\n'));
const back = [...arrows.values()].filter(([a, b]) => arrows.has(`${b} -> ${a}`) || reaches(b, a));
console.log(back.length ? `\nloops: ${back.map(([a, b]) => `${a} -> ${b}`).join(', ')}` : '\nno loops between modules');

function reaches(start, goal, seen = new Set()) {
  if (start === goal) return true;
  seen.add(start);
  for (const [a, b] of arrows.values()) if (a === start && !seen.has(b) && reaches(b, goal, seen)) return true;
  return false;
}
