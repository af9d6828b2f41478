/**
 * What a strict fake throws when the subject calls it in a way the test did not set up (an unknown
 * account, a write outside the open transaction, a zero debit): the test then fails loudly, naming the
 * call, instead of passing on a default answer.
 */
export class UnexpectedCall extends Error {
  constructor(call: string, why: string) {
    super(`unexpected call ${call}: ${why}`);
    this.name = 'UnexpectedCall';
  }
}

/** Throws unless `accountId` is the one account the fake serves. */
export function expectAccount(call: string, expected: number, actual: number): void {
  if (actual !== expected) throw new UnexpectedCall(call, `account ${actual}, but this fake serves account ${expected}`);
}
