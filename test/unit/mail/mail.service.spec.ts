import { Logger } from '@nestjs/common';
import { loadConfig } from '../../../src/config/app-config';
import { MailTemplates } from '../../../src/mail/mail-templates';
import { MailService } from '../../../src/mail/mail.service';

describe(MailService.name, () => {
  afterEach(() => jest.restoreAllMocks());

  it('without SMTP_URL says so at start and writes each mail to the log instead of sending it', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const mail = new MailService(loadConfig({}));
    expect(mail.delivers).toBe(false);
    expect(warn).toHaveBeenCalledWith({ msg: 'SMTP_URL is not set: emails are written to this log instead of being sent' });
    await expect(mail.send({ to: 'pat@example.com.au', subject: 'Hello', text: 'Body' })).resolves.toBe(true);
    expect(log).toHaveBeenCalledWith({ msg: 'email (not sent: no SMTP_URL)', to: 'pat@example.com.au', subject: 'Hello', body: 'Body' });
  });

  it('with an SMTP server that cannot be reached, logs the failure without the body and answers false', async () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const mail = new MailService(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:1' }));
    expect(mail.delivers).toBe(true);
    await expect(mail.send({ to: 'pat@example.com.au', subject: 'Reset', text: 'secret link' })).resolves.toBe(false);
    const logged = JSON.stringify(error.mock.calls);
    expect(logged).toContain('email not sent');
    expect(logged).not.toContain('secret link');
    mail.onModuleDestroy();
  });
});

describe('MailTemplates', () => {
  it('name the account, the link and how long it works', () => {
    const invite = MailTemplates.invitation('pat@example.com.au', { accountName: 'Harbour Bakery', link: 'https://d.example/set-password/abc', validHours: 24 });
    expect(invite.subject).toBe('You have been invited to Harbour Bakery on SMS Platform');
    expect(invite.text).toContain('https://d.example/set-password/abc');
    expect(invite.text).toContain('for 24 hours');
    const raised = MailTemplates.dailyLimitRaised('o@example.com.au', {
      accountName: 'A',
      keyLabel: 'Shop',
      username: 'api_x',
      by: 'b@example.com.au',
      fromAmount: '500.00',
      toAmount: '900.00',
    });
    expect(raised.text).toBe(
      'The daily purchase limit of the API key "Shop" (api_x) of A was raised from A$500.00 to A$900.00 (inc. GST) by b@example.com.au.\n\nIf this was not expected, lower it or switch purchases off in Settings > API.',
    );
  });
});
