import type { NewMessage } from '../../../src/messaging/messages.repository';
import type { NewSend } from '../../../src/messaging/sends.repository';
import type { PersistOptions, PricedSend, SendWriter } from '../../../src/messaging/send-writer.service';
import { FakeTx } from './fake-unit-of-work';

/** What a send was stored as: its row with its counts, and every message (streamed ones made, as the writer makes them). */
export type StoredSend = Omit<PricedSend, 'send' | 'messages'> & { send: NewSend; messages: NewMessage[] };

/**
 * SendWriter.persist that keeps what it was handed, as it would be stored. By default it "stores" the send as `sendId` and
 * answers options.respond(sendId); after `cannotPay()` it behaves as a failed debit: it builds the
 * operation's insufficient-credits error inside a transaction (`payTx`) and throws it.
 */
export class FakeSendWriter implements Pick<SendWriter, 'persist'> {
  /** Each call, its send as it would be stored; `streamed`: its messages were handed over to be made while stored. */
  readonly calls: Array<{ priced: StoredSend; streamed: boolean; options: PersistOptions<unknown> }> = [];
  /** The transaction the insufficient-credits error was built in, once it has been. */
  payTx?: FakeTx;
  private refuse?: { meanwhile?: () => void };

  constructor(private readonly sendId = 501) {}

  /** The debit fails; `meanwhile` runs first, as another request spending the credits would. */
  cannotPay(meanwhile?: () => void): this {
    this.refuse = { meanwhile };
    return this;
  }

  async persist<R>(priced: PricedSend, options: PersistOptions<R>): Promise<R> {
    this.calls.push({ priced: stored(priced), streamed: !Array.isArray(priced.messages), options: options as PersistOptions<unknown> });
    if (this.refuse) {
      this.refuse.meanwhile?.();
      this.payTx = new FakeTx('debit');
      throw await options.insufficientCredits(this.payTx);
    }
    return options.respond(this.sendId);
  }

  /** The one persist call the test expected. */
  get only(): { priced: StoredSend; streamed: boolean; options: PersistOptions<unknown> } {
    if (this.calls.length !== 1) throw new Error(`expected exactly one persist call, saw ${this.calls.length}`);
    return this.calls[0];
  }
}

/** Streamed messages made to the last, as SendWriter makes them while storing them. */
function stored(priced: PricedSend): StoredSend {
  if (Array.isArray(priced.messages)) return priced as StoredSend;
  const messages: NewMessage[] = [];
  for (let slice = priced.messages.nextSlice(); slice !== null; slice = priced.messages.nextSlice()) messages.push(...slice);
  return { ...priced, send: { ...priced.send, ...priced.messages.totals() }, messages };
}
