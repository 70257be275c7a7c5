import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config/config';

export type MailTransport = Transporter;

/**
 * The embedded SMTP catcher's address, set by start.ts when it starts one in this process.
 * It lives here, not in Config, because the catcher's port is only known after start-up.
 */
let embeddedCatcherUrl: string | null = null;

export function useEmbeddedCatcher(url: string | null): void {
  embeddedCatcherUrl = url;
}

/**
 * The dev mailbox (`/api/v1/dev/outbox`, `/dev/mailbox`) shows everyone's reset links: never in
 * production (whatever else is set), and only when mail is not going to a real SMTP server.
 * loadConfig already refuses production without SMTP_URL; this holds even if that changes.
 */
export function devMailboxEnabled(config: Pick<Config, 'SMTP_URL' | 'NODE_ENV'>): boolean {
  return !config.SMTP_URL && config.NODE_ENV !== 'production';
}

/** Where mail goes: SMTP_URL, else the embedded catcher, else nowhere (mail stays queued). */
export function smtpTarget(config: Pick<Config, 'SMTP_URL'>): string | null {
  return config.SMTP_URL ?? embeddedCatcherUrl;
}

/** A nodemailer SMTP transport with timeouts short enough that a dead server fails a send, not the job. */
export function createMailTransport(smtpUrl: string): MailTransport {
  return nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}
