import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

/** Wildcard listen addresses: the server answers on every address of the machine. */
const EVERY_ADDRESS = new Set(['0.0.0.0', '::', '[::]']);

const originOf = (host: string, port: number) =>
  new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`).origin;

/**
 * Every origin a browser can open the embedded default at (API.md "The family's journey, round
 * three"): the loopback names on the serving port, and with a wildcard HOST (a phone on the
 * Wi-Fi) every address of the machine. A family at http://127.0.0.1:3000 asked for its
 * verification link with that origin and met 400 REDIRECT_NOT_ALLOWED (issue 53). `publicUrl`
 * comes first: links in e-mails not asked for from a page (reminders) use it.
 */
export function servedOrigins(
  publicUrl: string,
  host: string,
  port: number,
  interfaces: () => Interfaces = networkInterfaces,
): string[] {
  const hosts = ['localhost', '127.0.0.1', '::1'];
  if (EVERY_ADDRESS.has(host)) {
    for (const list of Object.values(interfaces())) {
      // Link-local IPv6 addresses need a zone id (fe80::1%eth0), which a URL cannot carry.
      for (const info of list ?? [])
        if (!(info.family === 'IPv6' && info.address.toLowerCase().startsWith('fe80:'))) hosts.push(info.address);
    }
  } else hosts.push(host);
  return [...new Set([publicUrl, ...hosts.map((h) => originOf(h, port))])];
}
