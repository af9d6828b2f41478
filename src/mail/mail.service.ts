import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import nodemailer, { Transporter } from 'nodemailer';
import { AppConfig } from '../config/app-config';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Files sent with the mail (a tax invoice PDF). */
  attachments?: MailAttachment[];
}

/**
 * Sends the dashboard's emails over SMTP (SMTP_URL, from MAIL_FROM). Without SMTP_URL (development)
 * each mail is written to the log instead, and the start says so. Callers send after their
 * transaction commits; a mail that cannot be sent is logged (recipient and subject, never the body,
 * which may hold a single-use link) and does not undo what was done.
 */
@Injectable()
export class MailService implements OnModuleDestroy {
  private readonly logger = new Logger(MailService.name);
  private readonly transport: Transporter | null;

  constructor(private readonly config: AppConfig) {
    this.transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl, { from: config.mailFrom }) : null;
    if (!this.transport) this.logger.warn({ msg: 'SMTP_URL is not set: emails are written to this log instead of being sent' });
  }

  /** True when mails really leave (SMTP_URL is set). */
  get delivers(): boolean {
    return this.transport !== null;
  }

  async send(mail: Mail): Promise<boolean> {
    if (!this.transport) {
      this.logger.log({ msg: 'email (not sent: no SMTP_URL)', to: mail.to, subject: mail.subject, body: mail.text, attachments: mail.attachments?.map((a) => a.filename) });
      return true;
    }
    try {
      await this.transport.sendMail({ from: this.config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text, attachments: mail.attachments });
      return true;
    } catch (err) {
      this.logger.error({ msg: 'email not sent', to: mail.to, subject: mail.subject, err: (err as Error).message });
      return false;
    }
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
