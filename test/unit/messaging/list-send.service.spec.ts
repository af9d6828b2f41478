import type { Account } from '../../../src/accounts/account.entity';
import type { AccountsService } from '../../../src/accounts/accounts.service';
import type { Caller } from '../../../src/common/auth/authenticated-request';
import type { SenderType } from '../../../src/common/sms';
import { AppConfig } from '../../../src/config/app-config';
import type { ListsService } from '../../../src/lists/lists.service';
import type { QuietHoursService } from '../../../src/quiet-hours/quiet-hours.service';
import { ListSendCommand, ListSendService } from '../../../src/messaging/list-send.service';
import type { ListSendResult } from '../../../src/messaging/messages.mapper';
import type { SendWriter } from '../../../src/messaging/send-writer.service';
import type { SendersService } from '../../../src/senders/senders.service';
import type { UnsubscribesService } from '../../../src/unsubscribes/unsubscribes.service';
import { anAccount, FakeAccountsService } from '../fakes/fake-accounts-service';
import { FakeClock } from '../fakes/fake-clock';
import { aContact } from '../fakes/fake-contacts-service';
import { FakeListsService, ListMember } from '../fakes/fake-lists-service';
import { FakeSendWriter } from '../fakes/fake-send-writer';
import { FakeSendersService } from '../fakes/fake-senders-service';
import { FakeUnsubscribesService } from '../fakes/fake-unsubscribes-service';

const NOW = new Date('2030-01-15T10:00:00Z');
const caller: Caller = { accountId: 1, apiKeyId: 7, isTest: false, requestId: 'req-42' };
const LIST = 10;
const ANN = '61412345678';
const BOB = '61412345679';
const CAT = '61412345680';
const DAN = '61412345681';

function member(id: number, number: string, fields: Partial<ListMember> = {}, updatedAt = '2029-06-01T00:00:00Z'): ListMember {
  return { ...aContact({ id, number, ...fields }), updated_at: new Date(updatedAt) };
}

const FOUR = [member(1, ANN, { first_name: 'Ann' }), member(2, BOB, { first_name: 'Bob' }), member(3, CAT, { first_name: 'Cat' }), member(4, DAN, { first_name: 'Dan' })];

interface Setup {
  account?: Account;
  members?: ListMember[];
  unsubscribed?: string[];
  senders?: Record<string, SenderType>;
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
  members = FOUR,
  unsubscribed = [],
  senders = { Acme: 'alpha', '61400000001': 'dedicated' },
  writer = new FakeSendWriter(501),
  quietHours = new FakeQuietHours(null),
}: Setup = {}) {
  const accounts = new FakeAccountsService(account);
  const unsubscribes = new FakeUnsubscribesService(1, unsubscribed);
  const config = Object.assign(new AppConfig(), { shortLinkBase: 'https://sms.example' });
  const service = new ListSendService(
    accounts as unknown as AccountsService,
    new FakeSendersService(1, senders) as unknown as SendersService,
    new FakeListsService(1, { [LIST]: members }) as unknown as ListsService,
    unsubscribes as unknown as UnsubscribesService,
    writer as unknown as SendWriter,
    quietHours as unknown as QuietHoursService,
    new FakeClock(NOW),
    config,
  );
  return { service, writer, accounts, unsubscribes };
}

const command = (overrides: Partial<ListSendCommand> = {}): ListSendCommand => ({ listId: LIST, sender: 'Acme', message: 'Hi {first_name}', ...overrides });
const at = (iso: string) => new Date(iso);

describe(ListSendService.name, () => {
  describe('one message per number', () => {
    it('sends once per number, with the fields of the most recently updated contact', async () => {
      const { service, writer } = setup({
        members: [
          member(1, ANN, { first_name: 'New' }, '2029-07-01T00:00:00Z'),
          member(2, BOB, { first_name: 'Bob' }),
          member(3, ANN, { first_name: 'Old' }, '2029-01-01T00:00:00Z'),
        ],
      });

      const result = await service.send(caller, command());

      expect(writer.only.priced.messages.map((m) => [m.to, m.body])).toEqual([
        [ANN, 'Hi New'],
        [BOB, 'Hi Bob'],
      ]);
      expect(result.total_recipients).toBe(2);
    });

    it('breaks a tie of update times in favour of the later contact', async () => {
      const { service, writer } = setup({ members: [member(4, ANN, { first_name: 'Four' }), member(9, ANN, { first_name: 'Nine' })] });

      await service.send(caller, command());

      expect(writer.only.priced.messages.map((m) => m.body)).toEqual(['Hi Nine']);
    });

    it('keeps every contact, duplicate numbers included, when the account allows duplicate contacts', async () => {
      const { service, writer } = setup({
        account: anAccount({ allowDuplicateContacts: true }),
        members: [member(1, ANN, { first_name: 'Old' }, '2029-01-01T00:00:00Z'), member(3, ANN, { first_name: 'New' })],
      });

      await service.send(caller, command());

      expect(writer.only.priced.messages.map((m) => [m.to, m.body])).toEqual([
        [ANN, 'Hi Old'],
        [ANN, 'Hi New'],
      ]);
    });
  });

  describe('unsubscribes', () => {
    it('leaves out unsubscribed numbers, asking once about the distinct numbers, and counts them', async () => {
      const { service, writer, unsubscribes } = setup({ members: [...FOUR, member(5, BOB, {}, '2028-01-01T00:00:00Z')], unsubscribed: [BOB, DAN] });

      const result = await service.send(caller, command());

      expect(unsubscribes.lookups).toEqual([[ANN, BOB, CAT, DAN]]);
      expect(writer.only.priced.messages.map((m) => m.to)).toEqual([ANN, CAT]);
      expect(result).toMatchObject({ total_recipients: 2, total_blocked_unsubscribed: 2 });
    });

    it('counts each blocked contact when the account keeps duplicates', async () => {
      const { service } = setup({ account: anAccount({ allowDuplicateContacts: true }), members: [member(1, BOB), member(2, BOB), member(3, ANN)], unsubscribed: [BOB] });

      const result = await service.send(caller, command());

      expect(result).toMatchObject({ total_recipients: 1, total_blocked_unsubscribed: 2 });
    });

    it('neither asks nor blocks when ignore_unsubscribes is set', async () => {
      const { service, writer, unsubscribes } = setup({ unsubscribed: [BOB] });

      const result = await service.send(caller, command({ ignoreUnsubscribes: true }));

      expect(unsubscribes.lookups).toEqual([]);
      expect(result).toMatchObject({ total_recipients: 4, total_blocked_unsubscribed: 0 });
      expect(writer.only.priced.send.ignoreUnsubscribes).toBe(true);
    });
  });

  describe('texts over the part cap', () => {
    it('skips members whose personalised text exceeds max_parts and counts them', async () => {
      const { service, writer } = setup({ members: [member(1, ANN, { other: 'x'.repeat(158) }), member(2, BOB, { other: 'short' })] });

      const result = await service.send(caller, command({ message: 'Hi {other}', maxParts: 1 }));

      expect(writer.only.priced.messages.map((m) => m.to)).toEqual([BOB]);
      expect(result).toMatchObject({ total_recipients: 1, total_skipped_too_long: 1 });
    });

    it('caps texts at 5 parts when the request sets no max_parts', async () => {
      const { service } = setup({ members: [member(1, ANN, { other: 'x'.repeat(153 * 5) }), member(2, BOB, { other: 'x'.repeat(153 * 4) })] });

      const result = await service.send(caller, command({ message: '{other}!' }));

      expect(result).toMatchObject({ total_recipients: 1, total_skipped_too_long: 1 });
    });

    it('sends a text that needs Unicode as UCS-2 instead of skipping it', async () => {
      const { service, writer } = setup({ members: [member(1, ANN, { first_name: 'Zoë ☕' })] });

      await service.send(caller, command());

      expect(writer.only.priced.messages[0]).toMatchObject({ body: 'Hi Zoë ☕', encoding: 'ucs2', parts: 1 });
    });
  });

  describe('refusals', () => {
    it.each<[string, string, string, Setup, Partial<ListSendCommand>]>([
      ['an empty list', 'listEmpty', 'The list has no contacts', { members: [] }, {}],
      [
        'a list whose every number is unsubscribed',
        'noRecipientsAfterUnsubscribes',
        'No recipients remain after filtering unsubscribes',
        { unsubscribed: [ANN, BOB, CAT, DAN] },
        {},
      ],
      ['a list whose every text is too long', 'noRecipientsAfterFiltering', 'No recipients remain after filtering', {}, { message: 'x'.repeat(161), maxParts: 1 }],
      ['a sender the account may not use', 'invalidSender', 'Invalid sender. You do not have permission to use this sender', {}, { sender: 'Other' }],
      ['an unreadable scheduled_for', 'invalidScheduledFor', 'scheduled_for is not a valid datetime', {}, { scheduledFor: '15/01/2030' }],
    ])('refuses %s with %s, handing nothing to the writer', async (_, condition, text, given, overrides) => {
      const { service, writer } = setup(given);

      await expect(service.send(caller, command(overrides))).rejects.toMatchObject({ condition, message: text });
      expect(writer.calls).toEqual([]);
    });
  });

  describe('timing', () => {
    it('queues every message now when neither scheduled nor staggered', async () => {
      const { service, writer } = setup();

      const result = await service.send(caller, command());

      for (const m of writer.only.priced.messages) expect(m).toMatchObject({ status: 'pending', scheduledFor: null, dispatchAt: NOW });
      expect(result).toMatchObject({ scheduled_for: null, stagger_minutes: null, send_status: 'queued' });
    });

    it('moves messages as quiet hours say, scheduling them, while the answer keeps the send status the request asked for', async () => {
      const morning = at('2030-01-15T22:00:00Z');
      const quietHours = new FakeQuietHours(morning);
      const { service, writer } = setup({ quietHours });

      const result = await service.send(caller, command());

      expect(quietHours.asked[0].map((r) => r.at)).toEqual([NOW, NOW, NOW, NOW]);
      for (const m of writer.only.priced.messages) expect(m).toMatchObject({ status: 'scheduled', scheduledFor: morning, dispatchAt: morning });
      expect(result).toMatchObject({ scheduled_for: null, send_status: 'queued' });
    });

    it('schedules every message for the requested time', async () => {
      const { service, writer } = setup();

      const result = await service.send(caller, command({ scheduledFor: '2030-01-16T09:30:00Z' }));

      const when = at('2030-01-16T09:30:00Z');
      for (const m of writer.only.priced.messages) expect(m).toMatchObject({ status: 'scheduled', scheduledFor: when, dispatchAt: when });
      expect(writer.only.priced.send.scheduledFor).toEqual(when);
      expect(result).toMatchObject({ scheduled_for: '2030-01-16 09:30:00', send_status: 'scheduled' });
    });

    it('spreads a staggered send evenly over the window from now: the first due now, the rest scheduled', async () => {
      const { service, writer } = setup();

      const result = await service.send(caller, command({ staggerMinutes: 2 }));

      expect(writer.only.priced.messages.map((m) => [m.status, m.scheduledFor, m.dispatchAt])).toEqual([
        ['pending', null, NOW],
        ['scheduled', at('2030-01-15T10:00:30Z'), at('2030-01-15T10:00:30Z')],
        ['scheduled', at('2030-01-15T10:01:00Z'), at('2030-01-15T10:01:00Z')],
        ['scheduled', at('2030-01-15T10:01:30Z'), at('2030-01-15T10:01:30Z')],
      ]);
      expect(writer.only.priced.send.staggerMinutes).toBe(2);
      expect(result).toMatchObject({ scheduled_for: null, stagger_minutes: 2, send_status: 'queued' });
    });

    it('staggers a scheduled send from its scheduled time', async () => {
      const { service, writer } = setup({ members: FOUR.slice(0, 2) });

      await service.send(caller, command({ scheduledFor: '2030-01-16 09:30', staggerMinutes: 10 }));

      expect(writer.only.priced.messages.map((m) => [m.status, m.dispatchAt])).toEqual([
        ['scheduled', at('2030-01-16T09:30:00Z')],
        ['scheduled', at('2030-01-16T09:35:00Z')],
      ]);
    });
  });

  describe('what it hands to the writer', () => {
    it('prices each message as parts times the part rate, with the sender’s opt-out text and the custom_ref', async () => {
      const { service, writer } = setup({ account: anAccount({ partRate: 30 }), members: FOUR.slice(0, 2) });

      await service.send(caller, command({ message: '{first_name}: sale{optout}', sender: '61400000001', customRef: 'promo' }));

      expect(writer.only.priced.messages).toEqual([
        expect.objectContaining({
          to: ANN,
          sender: '61400000001',
          senderType: 'dedicated',
          body: 'Ann: sale Opt out: Reply Stop',
          customRef: 'promo',
          encoding: 'gsm7',
          parts: 1,
          cost: 30,
        }),
        expect.objectContaining({ to: BOB, body: 'Bob: sale Opt out: Reply Stop', customRef: 'promo', cost: 30 }),
      ]);
    });

    it('accepts a numeric sender in any mobile form and stores its normalised form', async () => {
      const { service, writer } = setup({ members: FOUR.slice(0, 1) });

      await service.send(caller, command({ message: 'Sale{optout}', sender: '+61 400 000 001' }));

      expect(writer.only.priced.messages[0]).toMatchObject({ sender: '61400000001', senderType: 'dedicated', body: 'Sale Opt out: Reply Stop' });
    });

    it('links alphanumeric senders to a per-recipient opt-out page, its link handed over with the message', async () => {
      const { service, writer } = setup({ members: FOUR.slice(0, 1) });

      await service.send(caller, command({ message: 'Sale{optout}' }));

      const { messages, links } = writer.only.priced;
      expect(messages[0].body).toMatch(/^Sale OptOut https:\/\/sms\.example\/o\/[0-9A-Za-z]{7}$/);
      expect(links?.drafts[0]).toEqual({ code: messages[0].body.slice(-7), kind: 'optout', url: null, messageId: messages[0].id });
    });

    it('hands over the list send row (with the request id), the list-send debit reason and failure condition, and no idempotency claim', async () => {
      const { service, writer } = setup({ account: anAccount({ isTest: true }) });

      await service.send(caller, command({ message: 'x'.repeat(200), customRef: 'promo', staggerMinutes: 5 }));

      const { priced, options } = writer.only;
      expect(priced.send).toEqual({
        accountId: 1,
        apiKeyId: 7,
        blockedCount: 0,
        kind: 'list',
        listId: LIST,
        ignoreUnsubscribes: false,
        customRef: 'promo',
        scheduledFor: null,
        shortenUrls: false,
        staggerMinutes: 5,
        messageCount: 4,
        totalCost: 800,
        requestId: 'req-42',
        userId: null,
        formKey: null,
      });
      expect(priced).toMatchObject({ isTest: true, debitReason: 'list send' });
      expect(options.failure).toBe('failedToSendToList');
      expect(options.claim).toBeUndefined();
    });

    it('answers with the stored send id, the counts and the total cost', async () => {
      const members = [member(1, ANN), member(2, BOB), member(3, CAT, { other: 'x'.repeat(800) }), member(4, DAN)];
      const { service } = setup({ writer: new FakeSendWriter(77), members, unsubscribed: [DAN] });

      const result = await service.send(caller, command({ message: 'Hi {other}' }));

      expect(result).toEqual<ListSendResult>({
        status: 'complete',
        send_id: 77,
        list_id: LIST,
        total_recipients: 2,
        total_blocked_unsubscribed: 1,
        total_skipped_too_long: 1,
        total_cost: 2,
        scheduled_for: null,
        stagger_minutes: null,
        send_status: 'queued',
      });
    });
  });

  it('names the credits needed and the balance read inside the debit’s transaction when the account cannot pay', async () => {
    const writer = new FakeSendWriter();
    const { service, accounts } = setup({ account: anAccount({ partRate: 125, creditBalance: 10_000 }), members: FOUR.slice(0, 3), writer });
    writer.cannotPay(() => accounts.update(1, { creditBalance: 120 }));

    await expect(service.send(caller, command())).rejects.toMatchObject({
      condition: 'insufficientCreditsFor',
      name: 'InsufficientCreditsFor',
      kind: 'forbidden',
      message: 'Insufficient credits: 3.75 needed, 1.2 available',
    });
    expect(accounts.reads.at(-1)).toEqual({ accountId: 1, tx: writer.payTx });
  });
});
