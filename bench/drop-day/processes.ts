import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from './nginx-balancer';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.join(REPO_ROOT, 'node_modules/.bin/tsx');

export interface ProcessGroup {
  addresses: string[];
  stop(): Promise<void>;
}

/**
 * Starts one process per port and waits until each answers `readyPath`. Used for the real API (its
 * build, as `npm start` and production run it) and for the hello-world ceiling, so both sit behind
 * nginx the same way. `.ts` scripts run through tsx, built `.mjs` ones on node with source maps.
 */
export async function startProcesses(opts: {
  name: string;
  script: string;
  cwd: string;
  ports: number[];
  env: Record<string, string>;
  readyPath: string;
  logDir: string;
}): Promise<ProcessGroup> {
  const children: ChildProcess[] = [];
  const logs: string[] = [];
  for (const [i, port] of opts.ports.entries()) {
    // Logs go straight to a file, as they would to a log collector: the bench process must not
    // spend its CPU reading them while it measures.
    logs[i] = path.join(opts.logDir, `${opts.name}-${port}.log`);
    const fd = fs.openSync(logs[i], 'a');
    const [command, args] = opts.script.endsWith('.ts') ? [TSX, [opts.script]] : [process.execPath, ['--enable-source-maps', opts.script]];
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', fd, fd],
    });
    fs.closeSync(fd);
    children.push(child);
  }
  const tail = (i: number) => fs.readFileSync(logs[i]!, 'utf8').slice(-3000);
  const group: ProcessGroup = {
    addresses: opts.ports.map((p) => `127.0.0.1:${p}`),
    stop: () =>
      Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              const force = setTimeout(() => c.kill('SIGKILL'), 12_000);
              c.once('exit', () => {
                clearTimeout(force);
                resolve();
              });
              c.kill('SIGTERM');
            }),
        ),
      ).then(() => {}),
  };
  try {
    await Promise.all(
      opts.ports.map((port, i) =>
        waitFor(
          async () => {
            const child = children[i]!;
            if (child.exitCode !== null) throw new Error(`${opts.name} on ${port} exited with ${child.exitCode}:\n${tail(i)}`);
            return (await fetch(`http://127.0.0.1:${port}${opts.readyPath}`).catch(() => null))?.ok === true;
          },
          120_000,
          `${opts.name} on ${port}`,
        ),
      ),
    );
  } catch (err) {
    await group.stop();
    throw err;
  }
  return group;
}
