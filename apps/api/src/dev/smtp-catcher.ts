import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { createDb } from '../db/client';
import { storeCaughtMail } from '../modules/mail/dev-mailbox.repository';

export interface SmtpCatcher {
  /** `smtp://127.0.0.1:<port>`, for nodemailer. */
  url: string;
  stop(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** The `List-*` header lines of a caught mail (RFC 2369, RFC 8058), by lower-case name. */
const listHeaders = (headers: { key: string; value: string }[]): Record<string, string> =>
  Object.fromEntries(
    headers.filter((h) => h.key.toLowerCase().startsWith('list-')).map((h) => [h.key.toLowerCase(), h.value]),
  );

/**
 * The embedded default's mail server: accepts any mail on a free loopback port and stores it in
 * dev_mailbox (one row per recipient), so every API process on that database can show it.
 * Never used when SMTP_URL is set.
 */
export async function startSmtpCatcher(databaseUrl: string, options: { port?: number } = {}): Promise<SmtpCatcher> {
  const { db, pool } = createDb(databaseUrl, 2);
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    banner: 'Kringle dev mail catcher',
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        void (async () => {
          const email = await PostalMime.parse(Buffer.concat(chunks));
          const recipients = session.envelope.rcptTo.map((r) => r.address);
          const from = email.from?.address ?? (session.envelope.mailFrom ? session.envelope.mailFrom.address : '');
          await storeCaughtMail(
            db,
            recipients.map((to) => ({
              to,
              from,
              subject: email.subject ?? '',
              text: email.text ?? '',
              html: email.html ?? '',
              headers: listHeaders(email.headers),
            })),
          );
        })().then(
          () => callback(),
          (err: Error) => callback(err),
        );
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = server.server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
  server.on('error', () => {});
  return {
    url: `smtp://127.0.0.1:${port}`,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}
