import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The API's package folder (apps/api): the nearest folder above this module with a package.json.
 * The same answer from src/ (tsx: dev, tests) and from the one-file build in dist/ (`npm start`,
 * production), where every module shares the bundle's URL.
 */
export const API_ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
})();
