import { Logger } from '@nestjs/common';
import type { AccountsService } from '../../../src/accounts/accounts.service';
import type { UnitOfWork } from '../../../src/database/unit-of-work';
import type { InboundRepository } from '../../../src/inbound/inbound.repository';
import { IncomingSms, InboundService } from '../../../src/inbound/inbound.service';
import { OptOutService } from '../../../src/inbound/opt-out.service';
import type { KeywordActionsService, KeywordReply } from '../../../src/inbound/keyword-actions.service';
import type { KeywordActions } from '../../../src/keywords/built-in-keywords';
import type { KeywordRulesService } from '../../../src/keywords/keyword-rules.service';
import type { CancelMessagesService } from '../../../src/messaging/cancel-messages.service';
import type { UnsubscribesService } from '../../../src/unsubscribes/unsubscribes.service';
import type { WebhookEventsService } from '../../../src/webhooks/webhook-events.service';
import { anAccount, FakeAccountsService } from '../fakes/fake-accounts-service';
import { FakeCancelMessagesService } from '../fakes/fake-cancel-messages-service';
import { FakeClock } from '../fakes/fake-clock';
import { FakeInboundRepository, SentMessage } from '../fakes/fake-inbound-repository';
import { FakeUnitOfWork } from '../fakes/fake-unit-of-work';
import { FakeUnsubscribesService } from '../fakes/fake-unsubscribes-service';
import { FakeWebhookEventsService } from '../fakes/fake-webhook-events-service';
import { RecordingLogger } from '../fakes/recording-logger';

const NOW = new Date('2030-01-15T10:00:00Z');
const RECEIVED = new Date('2030-01-15T09:59:58Z');
const ANN = '61412345678';
const BOB = '61412345679';
const DEDICATED = '61400000001';
const SHARED = '61400000009';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Setup {
  /** Receiving numbers and their owners, oldest sender first. */
  numbers?: Record<string, number[]>;
  sent?: SentMessage[];
  /** The account whose unsubscribe list the test watches. */
  unsubscribesOf?: number;
  isTest?: boolean;
  /** What the account's keyword rules make of every reply (null: no keyword matches). */
  keyword?: KeywordActions | null;
}

/** Answers every reply with the given actions, recording what it was asked. */
class FakeKeywordRules {
  readonly asked: Array<{ accountId: number; number: string; text: string }> = [];
  constructor(private readonly actions: KeywordActions | null) {}
  async actionsFor(accountId: number, number: string, text: string): Promise<KeywordActions | null> {
    this.asked.push({ accountId, number, text });
    return this.actions;
  }
}

class FakeKeywordActions {
  readonly applied: Array<{ reply: KeywordReply; actions: KeywordActions }> = [];
  async apply(reply: KeywordReply, actions: KeywordActions): Promise<null> {
    this.applied.push({ reply, actions });
    return null;
  }
}

function setup({ numbers = { [DEDICATED]: [1], [SHARED]: [2, 1] }, sent = [], unsubscribesOf = 1, isTest = false, keyword = null }: Setup = {}) {
  const uow = new FakeUnitOfWork();
  const repo = new FakeInboundRepository(numbers, sent);
  const unsubscribes = new FakeUnsubscribesService(unsubscribesOf);
  const cancellations = new FakeCancelMessagesService();
  const webhooks = new FakeWebhookEventsService();
  const keywords = new FakeKeywordRules(keyword);
  const keywordActions = new FakeKeywordActions();
  const optOuts = new OptOutService(
    uow as unknown as UnitOfWork,
    repo as unknown as InboundRepository,
    unsubscribes as unknown as UnsubscribesService,
    cancellations as unknown as CancelMessagesService,
    webhooks as unknown as WebhookEventsService,
    new FakeClock(NOW),
  );
  const service = new InboundService(
    uow as unknown as UnitOfWork,
    repo as unknown as InboundRepository,
    new FakeAccountsService(anAccount({ id: 1, isTest }), anAccount({ id: 2 })) as unknown as AccountsService,
    optOuts,
    keywords as unknown as KeywordRulesService,
    keywordActions as unknown as KeywordActionsService,
    webhooks as unknown as WebhookEventsService,
    new FakeClock(NOW),
  );
  return { service, keywords, keywordActions, uow, repo, unsubscribes, cancellations, webhooks };
}

const sms = (overrides: Partial<IncomingSms> = {}): IncomingSms => ({ from: '0412 345 678', to: '+61 400 000 001', text: 'Thanks!', receivedAt: RECEIVED, ...overrides });
const sentBy = (account_id: number, id: string, to: string, custom_ref: string | null = null, sender = SHARED): SentMessage => ({ account_id, id, custom_ref, sender, to });

describe(InboundService.name, () => {
  const logger = new RecordingLogger();
  beforeAll(() => Logger.overrideLogger(logger));
  beforeEach(() => logger.clear());

  describe('routing', () => {
    it('stores a reply, with normalised numbers, under the account that owns the receiving number, and requests its webhook', async () => {
      const { service, repo, webhooks, uow } = setup();

      const stored = await service.receive(sms());

      expect(stored).toEqual({ id: expect.stringMatching(UUID), type: 'inbound', accountId: 1 });
      expect(repo.stored).toEqual([
        { id: stored!.id, accountId: 1, from: ANN, to: DEDICATED, body: 'Thanks!', type: 'inbound', originalMessageId: null, originalCustomRef: null, receivedAt: RECEIVED },
      ]);
      expect(webhooks.inbound).toEqual([
        {
          accountId: 1,
          inbound: { to: DEDICATED, sender: ANN, message: 'Thanks!', receivedAt: RECEIVED, type: 'inbound', originalMessageId: null, originalCustomRef: null },
          tx: uow.onlyTransaction,
        },
      ]);
    });

    it('routes a reply on a shared number to the account that last wrote to that mobile from it', async () => {
      const sent = [sentBy(1, 'm-old', ANN), sentBy(2, 'm-new', ANN), sentBy(1, 'm-bob', BOB), sentBy(1, 'm-other-number', ANN, null, DEDICATED)];
      const { service, repo } = setup({ sent });

      const fromAnn = await service.receive(sms({ to: SHARED }));
      const fromBob = await service.receive(sms({ from: BOB, to: SHARED }));

      expect([fromAnn?.accountId, fromBob?.accountId]).toEqual([2, 1]);
      expect(repo.outboundLookups[0]).toEqual({ accountIds: [2, 1], sender: SHARED, mobile: ANN });
    });

    it('gives a shared number’s reply to its first owner when none of its owners wrote to the mobile', async () => {
      const { service } = setup({ sent: [sentBy(1, 'm-1', BOB)] });

      const stored = await service.receive(sms({ to: SHARED }));

      expect(stored?.accountId).toBe(2);
    });

    it('drops a reply to a number no account owns, with a warning: nothing stored, no transaction opened', async () => {
      const { service, repo, uow, webhooks } = setup();

      const stored = await service.receive(sms({ to: '61400000777' }));

      expect(stored).toBeNull();
      expect(logger.entries).toEqual([{ level: 'warn', message: { msg: 'inbound message for a number no account owns; dropped', to: '61400000777' }, context: 'InboundService' }]);
      expect(uow.transactions).toEqual([]);
      expect(repo.stored).toEqual([]);
      expect(webhooks.inbound).toEqual([]);
    });

    it('correlates the reply with the last message sent from that number to the mobile: its id and custom_ref', async () => {
      const { service, repo, webhooks } = setup({ sent: [sentBy(2, 'm-1', ANN, 'first'), sentBy(2, 'm-2', ANN, 'promo-7')] });

      await service.receive(sms({ to: SHARED }));

      expect(repo.stored[0]).toMatchObject({ originalMessageId: 'm-2', originalCustomRef: 'promo-7' });
      expect(webhooks.inbound[0].inbound).toMatchObject({ originalMessageId: 'm-2', originalCustomRef: 'promo-7' });
    });

    it('stores nothing when a later step of the same transaction fails', async () => {
      const { service, repo, webhooks } = setup();
      const broken = new Error('insert into webhook_events failed');
      webhooks.failWith(broken);

      await expect(service.receive(sms())).rejects.toBe(broken);
      expect(repo.stored).toEqual([]);
    });
  });

  describe('opt-outs', () => {
    it('treats a STOP-family reply as an unsubscribe: opts the number out, cancels its unsent messages and sends an unsubscribe-type webhook, in one transaction', async () => {
      const { service, repo, unsubscribes, cancellations, webhooks, uow } = setup();

      const stored = await service.receive(sms({ text: 'Stop please' }));

      const tx = uow.onlyTransaction;
      expect(stored?.type).toBe('unsubscribe');
      expect(repo.stored[0].type).toBe('unsubscribe');
      expect(unsubscribes.optOuts).toEqual([{ accountId: 1, number: ANN, source: 'reply', tx }]);
      expect(cancellations.forRecipient).toEqual([{ accountId: 1, number: ANN, tx }]);
      expect(webhooks.inbound).toEqual([{ accountId: 1, inbound: expect.objectContaining({ type: 'unsubscribe', message: 'Stop please' }), tx }]);
      expect(tx.state).toBe('committed');
    });

    it('opts the number out of the account the reply was routed to', async () => {
      const { service, unsubscribes, cancellations } = setup({ sent: [sentBy(2, 'm-1', ANN)], unsubscribesOf: 2 });

      await service.receive(sms({ to: SHARED, text: 'UNSUBSCRIBE' }));

      expect(unsubscribes.optOuts.map((o) => [o.accountId, o.number])).toEqual([[2, ANN]]);
      expect(cancellations.forRecipient.map((c) => [c.accountId, c.number])).toEqual([[2, ANN]]);
    });

    it.each([
      ['a landline', '02 9876 5432', '0298765432'],
      ['a short code', '1234', '1234'],
    ])('never unsubscribes %s, though its STOP is stored as an unsubscribe', async (_, from, storedFrom) => {
      const { service, repo, unsubscribes, cancellations } = setup();

      const stored = await service.receive(sms({ from, text: 'STOP' }));

      expect(stored?.type).toBe('unsubscribe');
      expect(repo.stored[0]).toMatchObject({ from: storedFrom, type: 'unsubscribe' });
      expect(unsubscribes.optOuts).toEqual([]);
      expect(cancellations.forRecipient).toEqual([]);
    });

    it('leaves the unsubscribe list alone for an ordinary reply that mentions stopping', async () => {
      const { service, unsubscribes, cancellations } = setup();

      const stored = await service.receive(sms({ text: 'please stop' }));

      expect(stored?.type).toBe('inbound');
      expect(unsubscribes.optOuts).toEqual([]);
      expect(cancellations.forRecipient).toEqual([]);
    });
  });

  describe('keywords', () => {
    const join: KeywordActions = { ruleId: 7, keyword: 'JOIN', reply: 'Welcome', addToListId: 3, removeFromListId: null, optOut: false, optIn: false };

    it('acts on the keyword a reply matches, in the same transaction, and names it on the stored message and the webhook', async () => {
      const { service, repo, keywords, keywordActions, webhooks, uow } = setup({ keyword: join });

      const stored = await service.receive(sms({ text: 'join!' }));

      expect(keywords.asked).toEqual([{ accountId: 1, number: DEDICATED, text: 'join!' }]);
      expect(keywordActions.applied).toEqual([{ reply: { accountId: 1, inboundId: stored!.id, mobile: ANN, to: DEDICATED, text: 'join!', stop: false }, actions: join }]);
      expect(repo.stored[0]).toMatchObject({ id: stored!.id, type: 'inbound', keywordRule: { ruleId: 7, keyword: 'JOIN' } });
      expect(webhooks.inbound[0].inbound.keywordRule).toEqual({ ruleId: 7, keyword: 'JOIN' });
      expect(uow.onlyTransaction.state).toBe('committed');
    });

    it('stores a reply matching an opt-out rule as an unsubscribe', async () => {
      const { service } = setup({ keyword: { ...join, optOut: true, addToListId: null } });
      expect((await service.receive(sms({ text: 'OPTOUT' })))?.type).toBe('unsubscribe');
    });

    it('tells the actions a STOP reply is one, after opting the number out', async () => {
      const { service, keywordActions, unsubscribes } = setup({ keyword: { ...join, keyword: 'STOP', addToListId: null } });
      await service.receive(sms({ text: 'STOP' }));
      expect(unsubscribes.optOuts.map((o) => o.number)).toEqual([ANN]);
      expect(keywordActions.applied[0].reply.stop).toBe(true);
    });

    it('asks no keyword of a sender that is not an Australian mobile', async () => {
      const { service, keywords, keywordActions } = setup({ keyword: join });
      await service.receive(sms({ from: '1300123456', text: 'JOIN' }));
      expect(keywords.asked).toEqual([]);
      expect(keywordActions.applied).toEqual([]);
    });
  });

  describe('simulate', () => {
    it('refuses a live account with testAccountsOnly, storing nothing', async () => {
      const { service, repo } = setup({ isTest: false });

      await expect(service.simulate(1, { from: '0412345678', message: 'Hi' })).rejects.toMatchObject({
        condition: 'testAccountsOnly',
        kind: 'forbidden',
        message: 'This endpoint is only available on test accounts',
      });
      expect(repo.stored).toEqual([]);
    });

    it('sends a test account’s simulated reply to its first receiving number through the same path, stamped now', async () => {
      const { service, repo, unsubscribes } = setup({ isTest: true });

      const result = await service.simulate(1, { from: '0412345678', message: 'STOP' });

      expect(result).toEqual({ status: 'complete', message_id: repo.stored[0].id, type: 'unsubscribe' });
      expect(repo.stored[0]).toMatchObject({ accountId: 1, from: ANN, to: DEDICATED, receivedAt: NOW });
      expect(unsubscribes.optOuts).toHaveLength(1);
    });

    it('keeps a simulated reply on a shared number with the simulating account, whoever wrote last', async () => {
      const { service, repo } = setup({ isTest: true, sent: [sentBy(2, 'm-2', ANN)] });

      await service.simulate(1, { from: ANN, message: 'Hi', to: SHARED });

      expect(repo.stored[0]).toMatchObject({ accountId: 1, to: SHARED, originalMessageId: null });
      expect(repo.outboundLookups).toEqual([{ accountIds: [1], sender: SHARED, mobile: ANN }]);
    });

    it.each<[string, Setup, string | undefined]>([
      ['a number another account owns', { numbers: { [DEDICATED]: [1], '61400000005': [2] } }, '61400000005'],
      ['no number at all', { numbers: {} }, undefined],
    ])('refuses %s with noReceivingNumber', async (_, given, to) => {
      const { service, repo } = setup({ ...given, isTest: true });

      await expect(service.simulate(1, { from: ANN, message: 'Hi', to })).rejects.toMatchObject({
        condition: 'noReceivingNumber',
        message: 'to must be one of the account’s dedicated or shared numbers',
      });
      expect(repo.stored).toEqual([]);
    });

    it('refuses a from that is not an Australian mobile', async () => {
      const { service } = setup({ isTest: true });

      await expect(service.simulate(1, { from: '1234', message: 'Hi' })).rejects.toMatchObject({ condition: 'invalidPhoneNumber', message: 'Invalid phone number format' });
    });
  });
});
