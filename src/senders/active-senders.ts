import type { SenderType } from './sender.entity';
import { numericSenderValue } from './sender-value';

export interface MatchedSender {
  /** The stored value: what a message is sent from and what responses show. */
  value: string;
  type: SenderType;
}

/**
 * An account's active senders, for checking the `sender` of a request. Numbers are numbers (interface,
 * general rule 4): a numeric sender is accepted in every form a recipient is (`0412 345 678`,
 * `+61412345678`, …) and matched after normalisation; an alphanumeric Sender ID must match exactly.
 */
export class ActiveSenders {
  constructor(private readonly byValue: ReadonlyMap<string, SenderType>) {}

  get size(): number {
    return this.byValue.size;
  }

  /** The stored values (alphanumeric IDs as registered, numbers normalised). */
  values(): string[] {
    return [...this.byValue.keys()];
  }

  /** The active sender a request names, or undefined when it names none (or is not a string). */
  match(requested: unknown): MatchedSender | undefined {
    if (typeof requested !== 'string' || requested === '') return undefined;
    const value = numericSenderValue(requested) ?? requested;
    const type = this.byValue.get(value);
    return type ? { value, type } : undefined;
  }
}
