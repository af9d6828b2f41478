import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { until } from './wait';

export interface ReceivedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
  attachments: ReceivedAttachment[];
}

/**
 * A real SMTP server on loopback that keeps what it receives, so tests read the mails the service sent.
 * `answerDelayMs` makes it slow to accept each mail (a loaded mail server), so a request that waits on
 * SMTP shows in its time.
 */
export class SmtpPeer {
  readonly received: ReceivedMail[] = [];
  private server?: SMTPServer;
  private port = 0;

  constructor(private readonly options: { answerDelayMs?: number } = {}) {}

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), ...parse(raw), raw });
          setTimeout(callback, this.options.answerDelayMs ?? 0);
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** Waits for the first mail to this address whose subject matches, and returns it. */
  async mailTo(address: string, subject: RegExp, timeoutMs = 10_000): Promise<ReceivedMail> {
    let found: ReceivedMail | undefined;
    await until(
      () => (found = this.received.find((m) => m.to.includes(address) && subject.test(m.subject))) !== undefined,
      `a mail to ${address} with subject ${subject}`,
      timeoutMs,
    );
    return found!;
  }

  mailsTo(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.includes(address));
  }
}

/**
 * The subject, the decoded plain-text body and the attachments of a mail as nodemailer writes them:
 * single-part text, or multipart/mixed with a text part and base64 attachments.
 */
function parse(raw: string): { subject: string; text: string; attachments: ReceivedAttachment[] } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1] ?? '';
  const boundary = /boundary="?([^";]+)"?/i.exec(header('Content-Type'))?.[1];
  if (!boundary) return { subject: decodeWords(header('Subject')), ...parsePart(raw), attachments: [] };
  const parts = raw
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .map((p) => p.replace(/^\r\n/, ''));
  let text = '';
  const attachments: ReceivedAttachment[] = [];
  for (const part of parts) {
    const partHead = part.slice(0, part.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
    const filename = /filename="?([^";\r\n]+)"?/i.exec(partHead)?.[1];
    if (filename) {
      const body = part.slice(part.indexOf('\r\n\r\n') + 4);
      const contentType = (/^Content-Type: ([^;\r\n]+)/im.exec(partHead)?.[1] ?? '').trim();
      attachments.push({ filename, contentType, content: Buffer.from(body.replace(/\s+/g, ''), 'base64') });
    } else if (/^Content-Type: text\/plain/im.test(partHead)) {
      text = parsePart(part).text;
    }
  }
  return { subject: decodeWords(header('Subject')), text, attachments };
}

/** One part (or a whole single-part mail): headers, then the body in its transfer encoding. */
function parsePart(raw: string): { text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1] ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  let text = body;
  if (encoding === 'quoted-printable') {
    text = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    text = Buffer.from(text, 'latin1').toString('utf8');
  } else if (encoding === 'base64') {
    text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return {
    text: text
      .replace(/\r\n/g, '\n')
      .replace(/\n\.\n?$/, '')
      .trimEnd(),
  };
}

function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, h: string) => String.fromCharCode(parseInt(h, 16))),
  );
}

/** The first dashboard link in a mail. */
export function linkIn(mail: ReceivedMail): string {
  const match = /https?:\/\/\S+\/set-password\/[A-Za-z0-9_-]+/.exec(mail.text);
  if (!match) throw new Error(`no set-password link in: ${mail.text}`);
  return match[0];
}
