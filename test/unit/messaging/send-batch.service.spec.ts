import { SerializedJson } from '../../../src/common/http/serialized-json';
import type { QuietHoursService } from '../../../src/quiet-hours/quiet-hours.service';
import type { AccountsService } from '../../../src/accounts/accounts.service';
import type { Caller } from '../../../src/common/auth/authenticated-request';
import type { SenderType } from '../../../src/common/sms';
import { AppConfig } from '../../../src/config/app-config';
import type { ContactRecord } from '../../../src/contacts/contact-fields';
import type { ContactsService } from '../../../src/contacts/contacts.service';
import type { IdempotencyClaim } from '../../../src/idempotency/idempotency.service';
import type { SendBatchResult } from '../../../src/messaging/messages.mapper';
import { SendBatchCommand, SendBatchService } from '../../../src/messaging/send-batch.service';
import type { SendWriter } from '../../../src/messaging/send-writer.service';
import type { SendersService } from '../../../src/senders/senders.service';
import type { UnsubscribesService } from '../../../src/unsubscribes/unsubscribes.service';
import type { Account } from '../../../src/accounts/account.entity';
import { anAccount, FakeAccountsService } from '../fakes/fake-accounts-service';
import { FakeClock } from '../fakes/fake-clock';
import { aContact, FakeContactsService } from '../fakes/fake-contacts-service';
import { FakeSendWriter } from '../fakes/fake-send-writer';
import { FakeSendersService } from '../fakes/fake-senders-service';
import { FakeUnsubscribesService } from '../fakes/fake-unsubscribes-service';

const NOW = new Date('2030-01-15T10:00:00Z');
const caller: Caller = { accountId: 1, apiKeyId: 7, isTest: false, requestId: 'req-42' };
const ANN = '61412345678';
const BOB = '61412345679';
const CAT = '61412345680';
/** Message ids are version 7 UUIDs (time-ordered: see common/ids/uuid7.ts). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Setup {
  account?: Account;
  senders?: Record<string, SenderType>;
  contacts?: ContactRecord[];
  unsubscribed?: string[];
  writer?: FakeSendWriter;
  quietHours?: FakeQuietHours;
}

/** Quiet hours that move every message to one moment (or, with null, are off). */
class FakeQuietHours {
  readonly asked: Array<Array<{ at: Date }>> = [];
  constructor(private readonly moveTo: Date | null) {}
  async schedule(_accountId: number, recipients: Array<{ at: Date }>): Promise<Date[] | null> {
    this.asked.push(recipients);
    return this.moveTo === null ? null : recipients.map(() => this.moveTo!);
  }
}

function setup({
  account = anAccount(),
  senders = { Acme: 'alpha', '61400000001': 'dedicated' },
  contacts = [],
  unsubscribed = [],
  writer = new FakeSendWriter(501),
  quietHours = new FakeQuietHours(null),
}: Setup = {}) {
  const contactsFake = new FakeContactsService(1, contacts);
  const unsubscribes = new FakeUnsubscribesService(1, unsubscribed);
  const config = Object.assign(new AppConfig(), { shortLinkBase: 'https://sms.example' });
  const service = new SendBatchService(
    new FakeAccountsService(account) as unknown as AccountsService,
    new FakeSendersService(1, senders) as unknown as SendersService,
    contactsFake as unknown as ContactsService,
    unsubscribes as unknown as UnsubscribesService,
    writer as unknown as SendWriter,
    quietHours as unknown as QuietHoursService,
    new FakeClock(NOW),
    config,
  );
  return { service, writer, contacts: contactsFake, unsubscribes, quietHours };
}

const to = (number: string, message = 'Hi', extra: Record<string, unknown> = {}) => ({ to: number, message, sender: 'Acme', ...extra });
const batch = (messages: unknown[], options: Omit<SendBatchCommand, 'messages'> = {}): SendBatchCommand => ({ messages, ...options });

describe(SendBatchService.name, () => {
  describe('per-entry results', () => {
    it('answers one result per entry in request order, errors and blocked entries beside successes', async () => {
      const { service, writer } = setup({ unsubscribed: [CAT] });

      const result = await service.send(
        caller,
        batch([
          to('0412 345 678'),
          { message: 'Hi', sender: 'Acme' },
          to('0412345679', 'Hi', { sender: 'Other' }),
          to('0412345680'),
          to('0412345679', 'Bye', { custom_ref: 'r-5' }),
        ]),
      );

      const [first, second] = writer.only.priced.messages;
      expect(result.results).toEqual([
        { to: ANN, message: 'Hi', sender: 'Acme', status: 'success', cost: 1, message_id: first.id, conversation: 0, scheduled_for: null },
        { to: '', message: 'Hi', sender: 'Acme', status: 'error', conversation: 0, scheduled_for: null, error: 'to is required' },
        { to: BOB, message: 'Hi', sender: 'Other', status: 'error', conversation: 0, scheduled_for: null, error: 'Invalid sender. You do not have permission to use this sender' },
        { to: CAT, message: 'Hi', sender: 'Acme', status: 'blocked', conversation: 0, scheduled_for: null, error: 'Recipient has unsubscribed' },
        { to: BOB, message: 'Bye', sender: 'Acme', custom_ref: 'r-5', status: 'success', cost: 1, message_id: second.id, conversation: 0, scheduled_for: null },
      ]);
    });

    it('hands the writer one message per success, in request order, each with a fresh uuid', async () => {
      const { service, writer } = setup();

      await service.send(caller, batch([to(ANN, 'one'), { to: 'nonsense', message: 'x', sender: 'Acme' }, to(BOB, 'two', { custom_ref: 'r-2' })]));

      const rows = writer.only.priced.messages;
      expect(rows.map((r) => [r.to, r.body, r.customRef])).toEqual([
        [ANN, 'one', null],
        [BOB, 'two', 'r-2'],
      ]);
      expect(rows.map((r) => r.id)).toEqual([expect.stringMatching(UUID), expect.stringMatching(UUID)]);
      expect(rows[0].id).not.toBe(rows[1].id);
    });

    it('still hands over a batch in which every entry failed, with no messages and nothing to pay', async () => {
      const { service, writer } = setup();

      const result = await service.send(caller, batch([{ to: ANN }, 42]));

      expect(writer.only.priced.messages).toEqual([]);
      expect(writer.only.priced.send).toMatchObject({ messageCount: 0, totalCost: 0 });
      expect(result.results.map((r) => [r.status, r.error])).toEqual([
        ['error', 'message is required'],
        ['error', 'to is required'],
      ]);
    });
  });

  it('refuses the whole batch with noAllowedSenders when the account has no active sender', async () => {
    const { service, writer } = setup({ senders: {} });

    await expect(service.send(caller, batch([to(ANN)]))).rejects.toMatchObject({
      condition: 'noAllowedSenders',
      name: 'NoAllowedSenders',
      kind: 'forbidden',
      message: 'No allowed senders found for this user',
    });
    expect(writer.calls).toEqual([]);
  });

  describe('quiet hours', () => {
    const morning = new Date('2030-01-15T22:00:00Z');

    it('moves valid entries as quiet hours say when the request respects them, scheduling those messages', async () => {
      const quietHours = new FakeQuietHours(morning);
      const { service, writer } = setup({ quietHours });

      const result = await service.send(caller, { ...batch([to(ANN, 'one'), { to: 'nonsense', message: 'x', sender: 'Acme' }]), respectQuietHours: true });

      expect(quietHours.asked[0].map((r) => r.at)).toEqual([NOW]);
      expect(writer.only.priced.messages.map((m) => [m.status, m.scheduledFor, m.dispatchAt])).toEqual([['scheduled', morning, morning]]);
      expect(result.results[0]).toMatchObject({ status: 'success', scheduled_for: '2030-01-15 22:00:00' });
    });

    it('never asks quiet hours when the request does not respect them (transactional sends are unaffected)', async () => {
      const quietHours = new FakeQuietHours(morning);
      const { service, writer } = setup({ quietHours });

      await service.send(caller, batch([to(ANN, 'one')]));

      expect(quietHours.asked).toEqual([]);
      expect(writer.only.priced.messages[0]).toMatchObject({ status: 'pending', scheduledFor: null });
    });
  });

  describe('unsubscribes', () => {
    it('asks once about the distinct numbers of valid entries and blocks every entry to an unsubscribed one', async () => {
      const { service, unsubscribes, writer } = setup({ unsubscribed: [ANN] });

      const result = await service.send(caller, batch([to(ANN, 'a'), to(BOB), to('0412 345 678', 'b'), { to: CAT, sender: 'Acme' }]));

      expect(unsubscribes.lookups).toEqual([[ANN, BOB]]);
      expect(result.results.map((r) => r.status)).toEqual(['blocked', 'success', 'blocked', 'error']);
      expect(writer.only.priced.messages.map((m) => m.to)).toEqual([BOB]);
    });

    it('asks about a number whose entry then fails composing, and leaves that entry an error, not blocked', async () => {
      const { service, unsubscribes, writer } = setup({ unsubscribed: [ANN] });

      const result = await service.send(caller, batch([to(ANN, 'x'.repeat(400)), to(BOB)], { maxParts: 1 }));

      expect(unsubscribes.lookups).toEqual([[ANN, BOB]]);
      expect(result.results.map((r) => r.status)).toEqual(['error', 'success']);
      expect(writer.only.priced.send.blockedCount).toBe(0);
    });

    it('sends to unsubscribed numbers without asking when ignore_unsubscribes is set, and says so', async () => {
      const { service, unsubscribes, writer } = setup({ unsubscribed: [ANN] });

      const result = await service.send(caller, batch([to(ANN)], { ignoreUnsubscribes: true }));

      expect(unsubscribes.lookups).toEqual([]);
      expect(result).toMatchObject({ ignore_unsubscribes: true, results: [{ status: 'success' }] });
      expect(writer.only.priced.send.ignoreUnsubscribes).toBe(true);
    });
  });

  describe('personalisation', () => {
    it('fills placeholders from the contact of each number, empty when there is none', async () => {
      const { service, contacts } = setup({ contacts: [aContact({ id: 3, number: ANN, first_name: 'Ann', company: 'Zed' })] });

      const result = await service.send(caller, batch([to(ANN, 'Hi {first_name} of {company}'), to(BOB, 'Hi {first_name}.'), to(CAT, '{number} plain')]));

      expect(result.results.map((r) => r.message)).toEqual(['Hi Ann of Zed', 'Hi .', `${CAT} plain`]);
      expect(contacts.lookups).toEqual([[ANN, BOB, CAT]]);
    });

    it('looks contacts up only for the entries whose template has placeholders', async () => {
      const { service, contacts } = setup();

      await service.send(caller, batch([to(ANN, 'Hello'), to(BOB, 'Dear {last_name}'), to(CAT, 'Hello again')]));

      expect(contacts.lookups).toEqual([[BOB]]);
    });

    it('does not look contacts up at all when no template has placeholders, {optout} included', async () => {
      const { service, contacts } = setup();

      const result = await service.send(caller, batch([to(ANN, 'Sale{optout}'), to(BOB, 'Sale{optout}', { sender: '61400000001' })]));

      expect(contacts.lookups).toEqual([]);
      expect(result.results.map((r) => r.message)).toEqual([expect.stringMatching(/^Sale OptOut https:\/\/sms\.example\/o\/[0-9A-Za-z]{7}$/), 'Sale Opt out: Reply Stop']);
    });
  });

  describe('sender forms', () => {
    it('matches a numeric sender in any mobile form, sends from and answers its normalised form', async () => {
      const { service, writer } = setup();

      const result = await service.send(caller, batch([to(ANN, 'Hi', { sender: '0400 000 001' }), to(BOB, 'Hi', { sender: '+61400000001' })]));

      expect(result.results.map((r) => [r.status, r.sender])).toEqual([
        ['success', '61400000001'],
        ['success', '61400000001'],
      ]);
      expect(writer.only.priced.messages.map((m) => [m.sender, m.senderType])).toEqual([
        ['61400000001', 'dedicated'],
        ['61400000001', 'dedicated'],
      ]);
    });
  });

  describe('pricing', () => {
    it('prices each message as its parts times the account’s part rate and totals the batch', async () => {
      const { service, writer } = setup({ account: anAccount({ partRate: 25 }) });

      const result = await service.send(caller, batch([to(ANN, 'x'.repeat(161)), to(BOB, 'short')]));

      expect(writer.only.priced.messages.map((m) => [m.parts, m.cost, m.encoding])).toEqual([
        [2, 50, 'gsm7'],
        [1, 25, 'gsm7'],
      ]);
      expect(writer.only.priced.send.totalCost).toBe(75);
      expect(result.total_cost).toBe(0.75);
      expect(result.results.map((r) => r.cost)).toEqual([0.5, 0.25]);
    });

    it('caps messages at 5 parts and refuses Unicode unless the request says otherwise', async () => {
      const { service } = setup();

      const defaults = await service.send(caller, batch([to(ANN, 'x'.repeat(153 * 5 + 1)), to(BOB, 'Café ☕')]));
      const widened = await service.send(caller, batch([to(ANN, 'x'.repeat(153 * 5 + 1)), to(BOB, 'Café ☕')], { maxParts: 6, enableUnicode: true }));

      expect(defaults.results.map((r) => r.error)).toEqual(['Message exceeds the maximum of 5 parts', 'Message contains characters that require enable_unicode']);
      expect(widened.results.map((r) => r.status)).toEqual(['success', 'success']);
    });

    it('prices a test account’s batch but hands it to the writer as a test send', async () => {
      const { service, writer } = setup({ account: anAccount({ isTest: true, creditBalance: 0 }) });

      const result = await service.send(caller, batch([to(ANN), to(BOB)]));

      expect(writer.only.priced.isTest).toBe(true);
      expect(writer.only.priced.send.totalCost).toBe(200);
      expect(result.total_cost).toBe(2);
    });
  });

  describe('scheduling', () => {
    it('stores an entry scheduled in the future as scheduled and due then', async () => {
      const { service, writer } = setup();

      const result = await service.send(caller, batch([to(ANN, 'Hi', { scheduled_for: '2030-01-16 09:30:00' })]));

      const at = new Date('2030-01-16T09:30:00Z');
      expect(writer.only.priced.messages[0]).toMatchObject({ status: 'scheduled', scheduledFor: at, dispatchAt: at });
      expect(result.results[0].scheduled_for).toBe('2030-01-16 09:30:00');
    });

    it('stores an unscheduled entry, or one scheduled in the past, as pending and due now', async () => {
      const { service, writer } = setup();

      const result = await service.send(caller, batch([to(ANN), to(BOB, 'Hi', { scheduled_for: '2030-01-01T00:00:00Z' })]));

      for (const message of writer.only.priced.messages) expect(message).toMatchObject({ status: 'pending', scheduledFor: null, dispatchAt: NOW });
      expect(result.results.map((r) => r.scheduled_for)).toEqual([null, null]);
    });
  });

  describe('what it hands to the writer', () => {
    it('hands over the send row (with the request id), the debit reason, the claim and the batch’s failure condition', async () => {
      const { service, writer } = setup();
      const claim: IdempotencyClaim = { apiKeyId: 7, key: 'k', fingerprint: Buffer.from('f') };

      await service.send(caller, batch([to(ANN), to(BOB, 'x'.repeat(200))], { shortenUrls: true }), claim);

      const { priced, options } = writer.only;
      expect(priced.send).toEqual({
        accountId: 1,
        apiKeyId: 7,
        blockedCount: 0,
        kind: 'batch',
        ignoreUnsubscribes: false,
        shortenUrls: true,
        messageCount: 2,
        totalCost: 300,
        requestId: 'req-42',
        userId: null,
        formKey: null,
      });
      expect(priced.debitReason).toBe('send');
      expect(priced.isTest).toBe(false);
      expect(options.claim).toBe(claim);
      expect(options.failure).toBe('failedToProcessMessages');
    });

    it('hands over a batch whose messages can hold no links to be made while they are stored', async () => {
      const { service, writer } = setup({ unsubscribed: [BOB] });

      await service.send(caller, batch([to(ANN, 'Hello {first_name}'), to(BOB), { to: 'nonsense', message: 'x', sender: 'Acme' }]));

      expect(writer.only.streamed).toBe(true);
      expect(writer.only.priced.links).toBeUndefined();
      expect(writer.only.priced.messages.map((m) => m.to)).toEqual([ANN]);
      expect(writer.only.priced.send).toMatchObject({ messageCount: 1, totalCost: 100, blockedCount: 1 });
    });

    it.each([
      ['{optout} from an alphanumeric sender', [to(ANN, 'Sale{optout}'), to(BOB)], {}],
      ['shorten_urls', [to(ANN, 'See https://shop.example/a'), to(BOB)], { shortenUrls: true }],
    ])('makes every message of a batch with links (%s) before handing it over, with its links', async (_, messages, options) => {
      const { service, writer } = setup();

      await service.send(caller, batch(messages, options));

      expect(writer.only.streamed).toBe(false);
      expect(writer.only.priced.links!.drafts).toEqual([expect.objectContaining({ messageId: writer.only.priced.messages[0].id })]);
    });

    it('makes every message of a batch that keeps quiet hours before handing it over', async () => {
      const { service, writer } = setup({ quietHours: new FakeQuietHours(new Date('2030-01-15T21:00:00Z')) });

      await service.send(caller, batch([to(ANN)], { respectQuietHours: true }));

      expect(writer.only.streamed).toBe(false);
      expect(writer.only.priced.messages[0]).toMatchObject({ status: 'scheduled' });
    });

    it('builds its answer from the send id the writer stored', async () => {
      const { service, writer } = setup({ writer: new FakeSendWriter(8812) });

      const result = await service.send(caller, batch([to(ANN)]));

      expect(result).toEqual<SendBatchResult>({
        status: 'complete',
        send_id: 8812,
        ignore_unsubscribes: false,
        total_cost: 1,
        results: [{ to: ANN, message: 'Hi', sender: 'Acme', status: 'success', cost: 1, message_id: writer.only.priced.messages[0].id, conversation: 0, scheduled_for: null }],
      });
      expect(await writer.only.options.respond(8813)).toMatchObject({ send_id: 8813 });
    });

    it('answers the API with the same result as its JSON text, ready to send as it is', async () => {
      const { service, writer } = setup({ writer: new FakeSendWriter(8812) });

      const json = await service.sendAsJson(caller, batch([to(ANN)]));

      expect(json).toBeInstanceOf(SerializedJson);
      expect(json.text).toBe(
        JSON.stringify({
          status: 'complete',
          send_id: 8812,
          ignore_unsubscribes: false,
          total_cost: 1,
          results: [{ to: ANN, message: 'Hi', sender: 'Acme', status: 'success', cost: 1, message_id: writer.only.priced.messages[0].id, conversation: 0, scheduled_for: null }],
        }),
      );
    });

    it("carries the answer's UTF-8 bytes, encoded with its text", async () => {
      const { service } = setup({ writer: new FakeSendWriter(8813) });

      const json = await service.sendAsJson(caller, batch([to(ANN, 'Kia ora 👋 — ready')], { enableUnicode: true }));

      expect(json.bytes.toString('utf8')).toBe(json.text);
      expect(JSON.parse(json.bytes.toString('utf8')).results[0].message).toBe('Kia ora 👋 — ready');
    });

    it('answers insufficientCredits with the batch text when the account cannot pay', async () => {
      const { service } = setup({ writer: new FakeSendWriter().cannotPay() });

      await expect(service.send(caller, batch([to(ANN)]))).rejects.toMatchObject({
        condition: 'insufficientCredits',
        name: 'InsufficientCredits',
        kind: 'forbidden',
        message: 'Insufficient credits to send the batch of messages',
      });
    });
  });
});
