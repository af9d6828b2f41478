import { SerializedJson } from '../../../src/common/http/serialized-json';
import type { DailyMessageCap } from '../../../src/accounts/daily-message-cap.service';
import type { CreditsService } from '../../../src/billing/credits.service';
import { failure } from '../../../src/common/errors/error-catalogue';
import type { TableStatistics } from '../../../src/database/table-statistics';
import type { Tx, UnitOfWork } from '../../../src/database/unit-of-work';
import { IdempotencyClaim, IdempotencyKeyTaken, IdempotencyService } from '../../../src/idempotency/idempotency.service';
import type { MessagesRepository, NewMessage } from '../../../src/messaging/messages.repository';
import { PersistOptions, PricedSend, SendWriter, StreamedMessages } from '../../../src/messaging/send-writer.service';
import type { SendsRepository } from '../../../src/messaging/sends.repository';
import { SendAlreadySubmitted } from '../../../src/messaging/send-requester';
import type { LinkBatch } from '../../../src/links/link-rewriter';
import type { LinkStore } from '../../../src/links/link-store.service';
import type { DispatchQueue } from '../../../src/queues/dispatch-queue';
import type { BalanceQueue } from '../../../src/queues/balance-queue';
import { FakeCreditsService } from '../fakes/fake-credits-service';
import { FakeDispatchQueue } from '../fakes/fake-dispatch-queue';
import { FakeIdempotencyService } from '../fakes/fake-idempotency-service';
import { FakeMessagesRepository } from '../fakes/fake-messages-repository';
import { FakeSendsRepository } from '../fakes/fake-sends-repository';
import { FakeTx, FakeUnitOfWork } from '../fakes/fake-unit-of-work';
import { Journal } from '../fakes/journal';
import type { SendingBrakeService } from '../../../src/sending-brake/sending-brake.service';

const NOW = new Date('2030-01-15T10:00:00Z');
const LATER = new Date('2030-01-15T10:05:00Z');
const claim: IdempotencyClaim = { apiKeyId: 7, key: 'retry-1', fingerprint: Buffer.from('fingerprint') };

function aMessage(id: string, cost: number, dispatchAt = NOW): NewMessage {
  return {
    id,
    to: '61412345678',
    sender: 'Acme',
    senderType: 'alpha',
    body: 'Hi',
    customRef: null,
    status: 'pending',
    encoding: 'gsm7',
    parts: cost / 100,
    cost,
    scheduledFor: null,
    dispatchAt,
  };
}

/** A send whose messages are made before it is stored. */
type UpFront = Extract<PricedSend, { messages: NewMessage[] }>;

function aPricedSend(overrides: Partial<UpFront> = {}, messages = [aMessage('m-1', 100), aMessage('m-2', 200, LATER)]): UpFront {
  const totalCost = messages.reduce((sum, m) => sum + m.cost, 0);
  return {
    send: { accountId: 1, apiKeyId: 7, kind: 'batch', ignoreUnsubscribes: false, messageCount: messages.length, totalCost },
    messages,
    isTest: false,
    debitReason: 'send',
    ...overrides,
  };
}

/** Messages made a slice at a time, each slice noted in the journal as it is made; blocked entries counted. */
function streamed(journal: Journal, slices: NewMessage[][], blockedCount = 0): StreamedMessages {
  let next = 0;
  return {
    nextSlice: () => {
      if (next >= slices.length) return null;
      journal.record(`slice ${next + 1} made`);
      return slices[next++];
    },
    totals: () => {
      if (next < slices.length) throw new Error('totals asked for before every slice was made');
      const rows = slices.flat();
      return { messageCount: rows.length, totalCost: rows.reduce((sum, m) => sum + m.cost, 0), blockedCount };
    },
  };
}

const UNCOUNTED_SEND = { accountId: 1, apiKeyId: 7, kind: 'batch' as const, ignoreUnsubscribes: false };

/** The link store as the writer sees it: records each call and the transaction it ran in. */
class FakeLinkStore {
  readonly stored: Array<{ accountId: number; sendId: number; codes: string[]; tx: Tx }> = [];
  constructor(private readonly journal: Journal) {}
  async store(accountId: number, sendId: number, batch: LinkBatch, tx: Tx): Promise<void> {
    this.journal.record('links.store');
    this.stored.push({ accountId, sendId, codes: batch.drafts.map((d) => d.code), tx });
  }
}

function setup(balance = 10_000) {
  const journal = new Journal();
  const uow = new FakeUnitOfWork(journal);
  const sends = new FakeSendsRepository(journal, 501);
  const messages = new FakeMessagesRepository(journal);
  const credits = new FakeCreditsService({ 1: balance }, journal);
  const idempotency = new FakeIdempotencyService(journal);
  const dispatch = new FakeDispatchQueue(journal);
  const links = new FakeLinkStore(journal);
  const grown: string[] = [];
  /** The message counts the daily cap and the brake were asked to take. */
  const counted = { cap: [] as number[], brake: [] as number[] };
  const writer = new SendWriter(
    uow as unknown as UnitOfWork,
    sends as unknown as SendsRepository,
    messages as unknown as MessagesRepository,
    credits as unknown as CreditsService,
    idempotency as unknown as IdempotencyService,
    dispatch as unknown as DispatchQueue,
    { crossed: () => Promise.resolve() } as unknown as BalanceQueue,
    links as unknown as LinkStore,
    { grew: (table: string, rows: number) => grown.push(`${table} +${rows}`) } as unknown as TableStatistics,
    { admit: async (_accountId: number, count: number) => void (journal.record('brake.admit'), counted.brake.push(count)) } as unknown as SendingBrakeService,
    { take: async (_apiKeyId: number | null, count: number) => void counted.cap.push(count) } as unknown as DailyMessageCap,
  );
  return { grown, journal, uow, sends, messages, credits, idempotency, dispatch, writer, links, counted };
}

function options(overrides: Partial<PersistOptions<{ send_id: number; text: string }>> = {}): PersistOptions<{ send_id: number; text: string }> {
  return {
    claim,
    failure: 'failedToProcessMessages',
    insufficientCredits: async () => failure('insufficientCredits'),
    respond: (sendId) => ({ send_id: sendId, text: 'Grüße “quoted”' }),
    ...overrides,
  };
}

describe(SendWriter.name, () => {
  it('stores nothing and charges nothing for a form key the account already used, naming the first send', async () => {
    const { writer, journal, credits, messages } = setup();
    const formSend = (accountId: number) => aPricedSend({ send: { ...aPricedSend().send, accountId, apiKeyId: null, formKey: '0190aaaa-0000-7000-8000-000000000000' } });
    const first = await writer.persist(formSend(1), options({ claim: undefined }));
    const balance = credits.balanceOf(1);

    await expect(writer.persist(formSend(1), options({ claim: undefined }))).rejects.toEqual(new SendAlreadySubmitted(first.send_id));
    expect(credits.balanceOf(1)).toBe(balance);
    expect(messages.inserts).toHaveLength(1);
    expect(journal.entries.slice(-2)).toEqual(['sends.insert', 'rollback tx2']);
  });

  it('claims the key first and completes it last inside one transaction, and enqueues dispatch only after the commit', async () => {
    const { writer, journal } = setup();

    await writer.persist(aPricedSend(), options());

    expect(journal.entries).toEqual([
      'begin tx1',
      'idempotency.claim',
      'sends.insert',
      'messages.insertMany',
      'brake.admit',
      'credits.debit',
      'idempotency.complete',
      'commit tx1',
      'dispatch.sendCommitted',
    ]);
  });

  it("stores the send's links in the same transaction, before the messages, and takes the brake and the debit last", async () => {
    const { writer, journal, links, uow } = setup();
    const drafts = [{ code: 'aaaaaaa', kind: 'url' as const, url: 'https://x.test', messageId: 'm-1' }];

    await writer.persist(aPricedSend({ links: { drafts, recode: () => undefined } }), options());

    expect(journal.entries).toEqual([
      'begin tx1',
      'idempotency.claim',
      'sends.insert',
      'links.store',
      'messages.insertMany',
      'brake.admit',
      'credits.debit',
      'idempotency.complete',
      'commit tx1',
      'dispatch.sendCommitted',
    ]);
    expect(links.stored).toEqual([{ accountId: 1, sendId: 501, codes: ['aaaaaaa'], tx: uow.onlyTransaction }]);
  });

  it('stores streamed messages as they are made, then writes the send’s counts, charges them, and answers once every slice is made', async () => {
    const { writer, journal, sends, messages, credits, dispatch, counted } = setup(1_000);
    const [a, b, c] = [aMessage('m-1', 100), aMessage('m-2', 200, LATER), aMessage('m-3', 100)];

    const response = await writer.persist(
      { send: UNCOUNTED_SEND, messages: streamed(journal, [[a, b], [], [c]], 2), isTest: false, debitReason: 'send' },
      options({ respond: async (sendId) => (journal.record('respond'), { send_id: sendId, text: 'x' }) }),
    );

    expect(journal.entries).toEqual([
      'begin tx1',
      'idempotency.claim',
      'sends.insert',
      'messages.insertSlices',
      'slice 1 made',
      'slice 2 made',
      'slice 3 made',
      'respond',
      'sends.setTotals',
      'brake.admit',
      'credits.debit',
      'idempotency.complete',
      'commit tx1',
      'dispatch.sendCommitted',
    ]);
    expect(response).toEqual({ send_id: 501, text: 'x' });
    expect(sends.rows).toEqual([{ ...UNCOUNTED_SEND, id: 501, messageCount: 3, totalCost: 400, blockedCount: 2 }]);
    expect(messages.inserts).toEqual([{ accountId: 1, sendId: 501, isTest: false, rows: [a, b, c] }]);
    expect(credits.balanceOf(1)).toBe(600);
    expect(counted).toEqual({ cap: [3], brake: [3] });
    expect(dispatch.enqueued).toEqual([{ sendId: 501, dueTimes: [NOW, LATER, NOW] }]);
  });

  it('keeps the counts of a streamed send none of whose entries became a message, and charges nothing', async () => {
    const { writer, journal, sends, messages } = setup(1_000);

    await writer.persist({ send: UNCOUNTED_SEND, messages: streamed(journal, [[], []], 2), isTest: false, debitReason: 'send' }, options());

    expect(sends.rows).toEqual([{ ...UNCOUNTED_SEND, id: 501, messageCount: 0, totalCost: 0, blockedCount: 2 }]);
    expect(messages.messages).toEqual([]);
    expect(journal.entries).not.toContain('credits.debit');
    expect(journal.entries).not.toContain('dispatch.sendCommitted');
  });

  it('refuses to store streamed messages made before it was called, keeping nothing', async () => {
    const { writer, journal, sends, credits } = setup(1_000);
    const made = streamed(journal, [[aMessage('m-1', 100)]]);
    while (made.nextSlice() !== null);

    await expect(writer.persist({ send: UNCOUNTED_SEND, messages: made, isTest: false, debitReason: 'send' }, options())).rejects.toMatchObject({
      condition: 'failedToProcessMessages',
      kind: 'internal',
      cause: new Error('streamed send: 1 messages counted, 0 stored'),
    });

    expect([sends.rows, credits.balanceOf(1)]).toEqual([[], 1_000]);
  });

  it('stores a streamed send of a test account with its counts, and neither brakes nor charges it', async () => {
    const { writer, journal, sends, credits } = setup(0);

    await writer.persist({ send: UNCOUNTED_SEND, messages: streamed(journal, [[aMessage('m-1', 100)]]), isTest: true, debitReason: 'send' }, options());

    expect(sends.rows).toEqual([{ ...UNCOUNTED_SEND, id: 501, messageCount: 1, totalCost: 100, blockedCount: 0 }]);
    expect(journal.entries).not.toContain('brake.admit');
    expect(credits.ledger).toEqual([]);
  });

  it('makes no message of a streamed send whose form key was used already', async () => {
    const { writer, journal } = setup(1_000);
    const formSend = { ...UNCOUNTED_SEND, apiKeyId: null, formKey: '0190aaaa-0000-7000-8000-000000000000' };
    await writer.persist({ send: formSend, messages: streamed(journal, [[aMessage('m-1', 100)]]), isTest: false, debitReason: 'send' }, options({ claim: undefined }));
    const made = journal.entries.filter((e) => e.startsWith('slice')).length;

    await expect(
      writer.persist({ send: formSend, messages: streamed(journal, [[aMessage('m-2', 100)]]), isTest: false, debitReason: 'send' }, options({ claim: undefined })),
    ).rejects.toEqual(new SendAlreadySubmitted(501));

    expect(journal.entries.filter((e) => e.startsWith('slice')).length).toBe(made);
  });

  it('keeps nothing of a streamed send whose messages PostgreSQL refuses, and writes no counts', async () => {
    const { writer, journal, sends, messages, credits } = setup(1_000);
    messages.failInsertsWith(new Error('refused'));

    await expect(
      writer.persist({ send: UNCOUNTED_SEND, messages: streamed(journal, [[aMessage('m-1', 100)]]), isTest: false, debitReason: 'send' }, options()),
    ).rejects.toMatchObject({
      condition: 'failedToProcessMessages',
    });

    expect(journal.entries).not.toContain('sends.setTotals');
    expect([sends.rows, messages.messages, credits.balanceOf(1)]).toEqual([[], [], 1_000]);
  });

  it('keeps nothing of a streamed send the account cannot pay for', async () => {
    const { writer, journal, sends, messages, credits } = setup(299);
    const refusal = failure('insufficientCredits');

    await expect(
      writer.persist(
        { send: UNCOUNTED_SEND, messages: streamed(journal, [[aMessage('m-1', 100)], [aMessage('m-2', 200)]]), isTest: false, debitReason: 'send' },
        options({ insufficientCredits: async () => refusal }),
      ),
    ).rejects.toBe(refusal);

    expect([sends.rows, messages.messages, credits.balanceOf(1)]).toEqual([[], [], 299]);
  });

  it('returns the response built from the new send id and stores exactly its JSON bytes with status 200', async () => {
    const { writer, idempotency } = setup();

    const response = await writer.persist(aPricedSend(), options());

    expect(response).toEqual({ send_id: 501, text: 'Grüße “quoted”' });
    expect(idempotency.claimed).toEqual([claim]);
    expect(idempotency.completed).toEqual([{ claim, status: 200, body: '{"send_id":501,"text":"Grüße “quoted”"}' }]);
  });

  it('builds the answer once, while the messages are stored, before the brake and the debit', async () => {
    const { writer, journal } = setup();
    let built = 0;

    await writer.persist(aPricedSend(), options({ respond: async (sendId) => (journal.record(`respond ${++built}`), { send_id: sendId, text: 'x' }) }));

    expect(journal.entries.slice(2, 6)).toEqual(['sends.insert', 'messages.insertMany', 'respond 1', 'brake.admit']);
  });

  it('builds the answer once for a send with no messages to store', async () => {
    const { writer } = setup();
    let built = 0;

    const response = await writer.persist(aPricedSend({}, []), options({ respond: (sendId) => (built++, { send_id: sendId, text: 'none' }) }));

    expect([response, built]).toEqual([{ send_id: 501, text: 'none' }, 1]);
  });

  it('stores a serialized answer for the Idempotency-Key as it is, serialized once', async () => {
    const { writer, idempotency } = setup();
    const text = '{"send_id":501,"results":[]}';

    const response = await writer.persist(aPricedSend(), { ...options(), respond: () => new SerializedJson(text) });

    expect(response).toEqual(new SerializedJson(text));
    expect(idempotency.completed).toEqual([{ claim, status: 200, body: text }]);
  });

  it('stores the send row and then its messages under the new send id, flagged live', async () => {
    const { writer, sends, messages } = setup();
    const priced = aPricedSend();

    await writer.persist(priced, options());

    expect(sends.rows).toEqual([{ ...priced.send, id: 501 }]);
    expect(messages.inserts).toEqual([{ accountId: 1, sendId: 501, isTest: false, rows: priced.messages }]);
  });

  it('debits the total once, with the given reason and the send as reference', async () => {
    const { writer, credits, uow } = setup(1_000);

    await writer.persist(aPricedSend({ debitReason: 'list send' }), options());

    expect(credits.ledger).toEqual([{ kind: 'debit', accountId: 1, amount: 300, reason: 'list send', reference: 'send:501', tx: uow.onlyTransaction }]);
    expect(credits.balanceOf(1)).toBe(700);
  });

  it('never debits a test account, yet stores its priced messages flagged test', async () => {
    const { writer, credits, messages, journal } = setup(0);

    await writer.persist(aPricedSend({ isTest: true }), options());

    expect(journal.entries).not.toContain('credits.debit');
    expect(journal.entries).not.toContain('brake.admit');
    expect(credits.ledger).toEqual([]);
    expect(messages.inserts).toEqual([expect.objectContaining({ isTest: true, rows: [expect.objectContaining({ cost: 100 }), expect.objectContaining({ cost: 200 })] })]);
  });

  it('does not debit a send that costs nothing', async () => {
    const { writer, journal } = setup(0);
    const free = aPricedSend({}, [aMessage('m-1', 0)]);

    await writer.persist(free, options());

    expect(journal.entries).not.toContain('credits.debit');
  });

  it('throws the supplied error, built inside the transaction, and keeps nothing when the account cannot pay', async () => {
    const { writer, uow, sends, messages, credits, idempotency, dispatch, grown } = setup(299);
    const refusal = failure('insufficientCreditsFor', '3', '2.99');
    let builtIn: { tx: Tx; state: FakeTx['state'] } | undefined;
    const insufficientCredits = async (tx: Tx) => {
      builtIn = { tx, state: (tx as FakeTx).state };
      return refusal;
    };

    await expect(writer.persist(aPricedSend(), options({ insufficientCredits }))).rejects.toBe(refusal);

    expect(builtIn).toEqual({ tx: uow.onlyTransaction, state: 'open' });
    expect(uow.onlyTransaction.state).toBe('rolledBack');
    // The messages were inserted before the debit was refused, and went with the rollback.
    expect(messages.inserts).toHaveLength(1);
    expect(messages.messages).toEqual([]);
    expect(sends.rows).toEqual([]);
    expect(credits.balanceOf(1)).toBe(299);
    expect(idempotency.completed).toEqual([]);
    expect(dispatch.enqueued).toEqual([]);
    expect(grown).toEqual([]);
  });

  it('tells the statistics keeper how many messages the committed send added', async () => {
    const { writer, grown } = setup();
    await writer.persist(aPricedSend(), options());
    expect(grown).toEqual(['messages +2']);
  });

  it('neither claims nor completes a key when the request carried none', async () => {
    const { writer, journal } = setup();

    await writer.persist(aPricedSend(), options({ claim: undefined }));

    expect(journal.entries).not.toContain('idempotency.claim');
    expect(journal.entries).not.toContain('idempotency.complete');
  });

  it('lets IdempotencyKeyTaken through, writing nothing, when another request completed the key', async () => {
    const { writer, journal, idempotency, dispatch } = setup();
    idempotency.takenByAnother(claim.key);

    await expect(writer.persist(aPricedSend(), options())).rejects.toBeInstanceOf(IdempotencyKeyTaken);

    expect(journal.entries).toEqual(['begin tx1', 'idempotency.claim', 'rollback tx1']);
    expect(dispatch.enqueued).toEqual([]);
  });

  it('lets a domain error through unchanged', async () => {
    const { writer, messages } = setup();
    const domainError = failure('serviceUnavailable');
    messages.failInsertsWith(domainError);

    await expect(writer.persist(aPricedSend(), options())).rejects.toBe(domainError);
  });

  it('lets a dependency failure through unchanged, so it is answered 503', async () => {
    const { writer, messages } = setup();
    const unreachable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    messages.failInsertsWith(unreachable);

    await expect(writer.persist(aPricedSend(), options())).rejects.toBe(unreachable);
  });

  it.each([
    ['failedToProcessMessages', 'Failed to process messages'],
    ['failedToSendToList', 'Failed to send to list'],
  ] as const)('turns an unexpected failure into the operation’s %s condition, keeping the cause and enqueuing nothing', async (condition, text) => {
    const { writer, messages, uow, dispatch } = setup();
    const bug = new Error('column "sender_type" does not exist');
    messages.failInsertsWith(bug);

    const rejection = writer.persist(aPricedSend(), options({ failure: condition }));

    await expect(rejection).rejects.toMatchObject({ condition, kind: 'internal', message: text, cause: bug });
    expect(uow.onlyTransaction.state).toBe('rolledBack');
    expect(dispatch.enqueued).toEqual([]);
  });

  it('enqueues the send once after the commit with every message’s due time', async () => {
    const { writer, dispatch } = setup();

    await writer.persist(aPricedSend(), options());

    expect(dispatch.enqueued).toEqual([{ sendId: 501, dueTimes: [NOW, LATER] }]);
  });

  it('enqueues nothing for a send without messages', async () => {
    const { writer, dispatch } = setup();
    const empty = aPricedSend({}, []);

    await writer.persist(empty, options());

    expect(dispatch.enqueued).toEqual([]);
  });

  it('answers without waiting for the dispatch queue', async () => {
    const { writer, dispatch } = setup();
    dispatch.stall();

    await expect(writer.persist(aPricedSend(), options())).resolves.toEqual({ send_id: 501, text: 'Grüße “quoted”' });
  });
});
