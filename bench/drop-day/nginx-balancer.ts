import { execFile, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const NGINX_TEMPLATE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../nginx/kringle.conf.template',
);

/** Fills the committed template (the same file docs/deploy.md installs). */
export function renderSiteConfig(opts: {
  listen: string;
  serverName: string;
  upstreams: string[];
  accessLog: string;
}): string {
  const servers = opts.upstreams.map((u) => `server ${u} max_fails=3 fail_timeout=10s;`).join('\n    ');
  return fs
    .readFileSync(NGINX_TEMPLATE, 'utf8')
    .replaceAll('{{LISTEN}}', opts.listen)
    .replaceAll('{{SERVER_NAME}}', opts.serverName)
    .replaceAll('{{API_SERVERS}}', servers)
    .replaceAll('{{ACCESS_LOG}}', opts.accessLog);
}

/** The nginx binary, installing Debian's package once if it is missing (the bench runs as root here). */
export async function ensureNginx(): Promise<{ bin: string; version: string }> {
  const bin = '/usr/sbin/nginx';
  if (!fs.existsSync(bin)) {
    if (process.getuid?.() !== 0)
      throw new Error("nginx is not installed: run `sudo apt-get install -y nginx` (Debian's package) and try again");
    console.log("Installing Debian's nginx (apt-get install -y nginx)...");
    await run('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).catch((err: Error) => {
      throw new Error(`Could not install nginx (apt-get install -y nginx): ${err.message}`);
    });
  }
  const { stderr } = await run(bin, ['-v']);
  return { bin, version: stderr.trim().replace(/^nginx version: /, '') };
}

export interface Balancer {
  url: string;
  stop(): Promise<void>;
}

/** Where nginx listens and how it is started: by default on loopback, as our own child. */
export interface BalancerSite {
  listen: string;
  url: string;
  /** The production rehearsal starts it inside the nginx host's network namespace. */
  spawn: (cmd: string, args: string[], options: SpawnOptions) => ChildProcess;
}

/**
 * Runs nginx in the foreground as our child with a minimal main config around the site file:
 * its pid, logs and temp files stay in `dir`, so it never touches /etc/nginx or the system service.
 */
export async function startBalancer(
  bin: string,
  dir: string,
  port: number,
  upstreams: string[],
  site: BalancerSite = { listen: `127.0.0.1:${port}`, url: `http://127.0.0.1:${port}`, spawn },
): Promise<Balancer> {
  fs.mkdirSync(dir, { recursive: true });
  const siteFile = path.join(dir, 'kringle.conf');
  fs.writeFileSync(
    siteFile,
    renderSiteConfig({
      listen: site.listen,
      serverName: 'localhost',
      upstreams,
      accessLog: path.join(dir, 'access.log'),
    }),
  );
  const main = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    main,
    `worker_processes auto;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
daemon off;
events { worker_connections 8192; }
http {
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${siteFile};
}
`,
  );
  await run(bin, ['-t', '-q', '-c', main, '-p', dir]).catch((err: { stderr?: string }) => {
    throw new Error(`nginx rejected the config: ${err.stderr ?? String(err)}`);
  });
  const child = site.spawn(bin, ['-c', main, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = site.url;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
      return (await fetch(url).catch(() => null)) !== null;
    },
    10_000,
    'nginx',
  );
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGQUIT');
      }),
  };
}

/** Polls `ready` (true: done, false: not yet, a throw: give up now) until `timeoutMs`. */
export async function waitFor(ready: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`${what} did not become ready within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
