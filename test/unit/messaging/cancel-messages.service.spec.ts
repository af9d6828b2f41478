import type { Account } from '../../../src/accounts/account.entity';
import type { AccountsService } from '../../../src/accounts/accounts.service';
import type { CreditsService } from '../../../src/billing/credits.service';
import type { UnitOfWork } from '../../../src/database/unit-of-work';
import type { UnclaimedCancellation } from '../../../src/delivery/state/unclaimed-cancellation.service';
import { CancelMessagesService } from '../../../src/messaging/cancel-messages.service';
import type { MessagesRepository } from '../../../src/messaging/messages.repository';
import type { WebhookEventsService } from '../../../src/webhooks/webhook-events.service';
import { anAccount, FakeAccountsService } from '../fakes/fake-accounts-service';
import { FakeClock } from '../fakes/fake-clock';
import { FakeCreditsService } from '../fakes/fake-credits-service';
import { FakeMessagesRepository } from '../fakes/fake-messages-repository';
import { FakeUnitOfWork } from '../fakes/fake-unit-of-work';
import { FakeWebhookEventsService } from '../fakes/fake-webhook-events-service';

const NOW = new Date('2030-01-15T10:00:00Z');
const ANN = '61412345678';
const BOB = '61412345679';
const id = (n: number) => `aaaaaaaa-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [M1, M2, M3, M4] = [id(1), id(2), id(3), id(4)];
const UNKNOWN = id(99);

function setup(account: Account = anAccount()) {
  const uow = new FakeUnitOfWork();
  const accounts = new FakeAccountsService(account, anAccount({ id: 2 }));
  const messages = new FakeMessagesRepository();
  const credits = new FakeCreditsService({ 1: 0, 2: 0 });
  const webhooks = new FakeWebhookEventsService();
  // Send 11: two scheduled messages (2 parts and 1 part); send 12: one already sent; send 13: another account's.
  messages.seed({ id: M1, accountId: 1, sendId: 11, status: 'scheduled', customRef: 'promo', cost: 200, parts: 2, to: ANN });
  messages.seed({ id: M2, accountId: 1, sendId: 11, status: 'scheduled', customRef: 'promo', cost: 100, parts: 1, to: BOB });
  messages.seed({ id: M3, accountId: 1, sendId: 12, status: 'sent', customRef: 'promo', cost: 100 });
  messages.seed({ id: M4, accountId: 2, sendId: 13, status: 'scheduled', customRef: 'promo', cost: 100 });
  const service = new CancelMessagesService(
    uow as unknown as UnitOfWork,
    accounts as unknown as AccountsService,
    messages as unknown as MessagesRepository,
    messages as unknown as UnclaimedCancellation,
    credits as unknown as CreditsService,
    webhooks as unknown as WebhookEventsService,
    new FakeClock(NOW),
  );
  return { service, uow, accounts, messages, credits, webhooks };
}

describe(CancelMessagesService.name, () => {
  describe('which identifier decides', () => {
    it('cancels by message_id alone when message_id, send_id and custom_ref are all given', async () => {
      const { service, messages } = setup();

      const result = await service.cancel(1, { messageId: M1, sendId: 11, customRef: 'promo' });

      expect(result).toEqual({ status: 'complete', message_id: M1, cancelled: true, credits_refunded: 2 });
      expect(messages.cancelMatches).toEqual([{ messageId: M1 }]);
      expect(messages.statusById(M2)).toBe('scheduled');
    });

    it('does not fall through to send_id when the message_id matches nothing', async () => {
      const { service, messages } = setup();

      await expect(service.cancel(1, { messageId: UNKNOWN, sendId: 11 })).rejects.toMatchObject({ condition: 'messageNotFound' });
      expect(messages.cancelMatches).toEqual([{ messageId: UNKNOWN }]);
      expect(messages.statusById(M1)).toBe('scheduled');
    });

    it('cancels by send_id over custom_ref', async () => {
      const { service, messages } = setup();

      const result = await service.cancel(1, { sendId: 11, customRef: 'nothing-has-this' });

      expect(result).toEqual({ status: 'complete', send_id: 11, cancelled_count: 2, credits_refunded: 3 });
      expect(messages.cancelMatches).toEqual([{ sendId: 11 }]);
    });

    it('takes an empty message_id as no identifier', async () => {
      const { service, messages } = setup();

      await service.cancel(1, { messageId: '', customRef: 'promo' });

      expect(messages.cancelMatches).toEqual([{ customRef: 'promo' }]);
    });

    it.each([{}, { customRef: '' }, { messageId: '', customRef: '' }])('refuses %j with cancelIdentifierRequired, opening no transaction', async (command) => {
      const { service, uow } = setup();

      await expect(async () => service.cancel(1, command)).rejects.toMatchObject({
        condition: 'cancelIdentifierRequired',
        message: 'message_id, custom_ref, or send_id is required',
      });
      expect(uow.transactions).toEqual([]);
    });
  });

  describe('by message_id', () => {
    it('answers messageNotFound for a malformed message_id without opening a transaction', async () => {
      const { service, uow } = setup();

      await expect(service.cancel(1, { messageId: 'not-a-uuid' })).rejects.toMatchObject({ condition: 'messageNotFound', kind: 'not_found', message: 'Message not found' });
      expect(uow.transactions).toEqual([]);
    });

    it('finds an upper-case message_id and answers with the id as stored', async () => {
      const { service, messages } = setup();

      const result = await service.cancel(1, { messageId: M1.toUpperCase() });

      expect(result).toMatchObject({ message_id: M1, cancelled: true });
      expect(messages.statusById(M1)).toBe('cancelled');
    });

    it('answers messageNotScheduled (a conflict) for a message that exists but is no longer scheduled', async () => {
      const { service } = setup();

      await expect(service.cancel(1, { messageId: M3 })).rejects.toMatchObject({
        condition: 'messageNotScheduled',
        name: 'MessageNotScheduled',
        kind: 'conflict',
        message: 'Message is not in a scheduled state',
      });
    });

    it.each([
      ['an unknown message', UNKNOWN],
      ['another account’s message', M4],
    ])('answers messageNotFound for %s', async (_, messageId) => {
      const { service, messages } = setup();

      await expect(service.cancel(1, { messageId })).rejects.toMatchObject({ condition: 'messageNotFound', message: 'Message not found' });
      expect(messages.statusById(M4)).toBe('scheduled');
    });
  });

  describe('by send_id and custom_ref', () => {
    it.each([
      ['an unknown send', 99],
      ['another account’s send', 13],
    ])('answers sendNotFound for %s', async (_, sendId) => {
      const { service } = setup();

      await expect(service.cancel(1, { sendId })).rejects.toMatchObject({ condition: 'sendNotFound', kind: 'not_found', message: 'Send not found' });
    });

    it('answers noScheduledForSend when none of the send’s messages is still scheduled', async () => {
      const { service } = setup();

      await expect(service.cancel(1, { sendId: 12 })).rejects.toMatchObject({ condition: 'noScheduledForSend', message: 'No scheduled messages found for this send' });
    });

    it('cancels every scheduled message of the account with the custom_ref, and only those', async () => {
      const { service, messages } = setup();

      const result = await service.cancel(1, { customRef: 'promo' });

      expect(result).toEqual({ status: 'complete', custom_ref: 'promo', cancelled_count: 2, credits_refunded: 3 });
      expect([M1, M2, M3, M4].map((m) => messages.statusById(m))).toEqual(['cancelled', 'cancelled', 'sent', 'scheduled']);
    });

    it('answers noScheduledForCustomRef when nothing scheduled carries the custom_ref', async () => {
      const { service } = setup();

      await expect(service.cancel(1, { customRef: 'nothing-has-this' })).rejects.toMatchObject({
        condition: 'noScheduledForCustomRef',
        message: 'No scheduled messages found with the given custom_ref',
      });
    });
  });

  describe('refunds and webhooks', () => {
    it.each([
      [{ messageId: M1 }, 200, `message:${M1}`, [{ messageId: M1, amount: 200 }]],
      [
        { sendId: 11 },
        300,
        'send:11',
        [
          { messageId: M1, amount: 200 },
          { messageId: M2, amount: 100 },
        ],
      ],
      [
        { customRef: 'promo' },
        300,
        'custom_ref:promo',
        [
          { messageId: M1, amount: 200 },
          { messageId: M2, amount: 100 },
        ],
      ],
    ])('refunds a live account for %j in the cancelling transaction, naming each message paid back', async (command, amount, reference, lines) => {
      const { service, credits, uow } = setup();

      await service.cancel(1, command);

      expect(credits.ledger).toEqual([{ kind: 'refund', accountId: 1, amount, reason: 'cancelled scheduled messages', reference, lines, tx: uow.onlyTransaction }]);
      expect(credits.balanceOf(1)).toBe(amount);
    });

    it('reports the cancelled credits of a test account but refunds nothing', async () => {
      const { service, credits } = setup(anAccount({ isTest: true }));

      const result = await service.cancel(1, { sendId: 11 });

      expect(result.credits_refunded).toBe(3);
      expect(credits.ledger).toEqual([]);
    });

    it('refunds nothing for messages that cost nothing', async () => {
      const { service, messages, credits } = setup();
      messages.seed({ id: id(5), accountId: 1, sendId: 14, status: 'scheduled', cost: 0 });

      const result = await service.cancel(1, { sendId: 14 });

      expect(result).toMatchObject({ cancelled_count: 1, credits_refunded: 0 });
      expect(credits.ledger).toEqual([]);
    });

    it('reads whether the account is a test account inside the cancelling transaction, holding no second connection', async () => {
      const { service, accounts, uow } = setup();

      await service.cancel(1, { sendId: 11 });

      expect(accounts.reads).toEqual([{ accountId: 1, tx: uow.onlyTransaction }]);
    });

    it('requests `cancelled` webhooks for every cancelled message, stamped with the clock, in the same transaction', async () => {
      const { service, webhooks, uow } = setup();

      await service.cancel(1, { sendId: 11 });

      expect(webhooks.cancelled).toEqual([
        {
          accountId: 1,
          messages: [
            { id: M1, cost: 200, parts: 2, to: ANN, sender: 'Acme', body: 'Hello', customRef: 'promo' },
            { id: M2, cost: 100, parts: 1, to: BOB, sender: 'Acme', body: 'Hello', customRef: 'promo' },
          ],
          at: NOW,
          tx: uow.onlyTransaction,
        },
      ]);
    });
  });

  describe('failures', () => {
    it.each([
      [{ messageId: M1 }, 'failedToCancelMessage', 'Failed to cancel message'],
      [{ sendId: 11 }, 'failedToCancelSend', 'Failed to cancel send'],
      [{ customRef: 'promo' }, 'failedToCancelMessages', 'Failed to cancel messages'],
    ])('answers %j’s unexpected failure with %s, and nothing stays cancelled or refunded', async (command, condition, text) => {
      const { service, webhooks, messages, credits, uow } = setup();
      const bug = new Error('relation "webhook_events" does not exist');
      webhooks.failWith(bug);

      await expect(service.cancel(1, command)).rejects.toMatchObject({ condition, kind: 'internal', message: text, cause: bug });
      expect(uow.onlyTransaction.state).toBe('rolledBack');
      expect([M1, M2].map((m) => messages.statusById(m))).toEqual(['scheduled', 'scheduled']);
      expect(credits.ledger).toEqual([]);
    });

    it('lets a dependency failure through unchanged, so it is answered 503', async () => {
      const { service, webhooks } = setup();
      const unreachable = Object.assign(new Error('Connection terminated unexpectedly'), { code: '' });
      webhooks.failWith(unreachable);

      await expect(service.cancel(1, { sendId: 11 })).rejects.toBe(unreachable);
    });
  });

  describe('cancelForRecipient', () => {
    it('cancels and refunds the number’s pending and scheduled messages no dispatcher has taken, inside the caller’s transaction', async () => {
      const { service, uow, messages, credits, webhooks } = setup();
      messages.seed({ id: id(5), accountId: 1, sendId: 15, status: 'pending', to: ANN, cost: 100 });
      messages.seed({ id: id(6), accountId: 1, sendId: 15, status: 'pending', to: ANN, cost: 100, dispatched: true });
      messages.seed({ id: id(7), accountId: 1, sendId: 15, status: 'delivered', to: ANN, cost: 100 });

      const outcome = await uow.run((tx) => service.cancelForRecipient(1, ANN, tx));

      expect(outcome).toEqual({ count: 2, refunded: 300 });
      expect([M1, id(5), id(6), id(7), M2].map((m) => messages.statusById(m))).toEqual(['cancelled', 'cancelled', 'pending', 'delivered', 'scheduled']);
      expect(uow.transactions).toHaveLength(1);
      expect(credits.ledger).toEqual([
        {
          kind: 'refund',
          accountId: 1,
          amount: 300,
          reason: 'recipient opted out',
          reference: `stop:${ANN}`,
          lines: [
            { messageId: M1, amount: 200 },
            { messageId: id(5), amount: 100 },
          ],
          tx: uow.onlyTransaction,
        },
      ]);
      expect(webhooks.cancelled.map((c) => c.messages.map((m) => m.id))).toEqual([[M1, id(5)]]);
    });

    it('does nothing more when the number has nothing unsent', async () => {
      const { service, uow, credits, webhooks, accounts } = setup();

      const outcome = await uow.run((tx) => service.cancelForRecipient(1, '61499999999', tx));

      expect(outcome).toEqual({ count: 0, refunded: 0 });
      expect(credits.ledger).toEqual([]);
      expect(webhooks.cancelled).toEqual([]);
      expect(accounts.reads).toEqual([]);
    });
  });
});
