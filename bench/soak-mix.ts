/** The soak's traffic: which request comes next, and what earlier answers left to look up or cancel. */
export interface SoakAccount {
  accountId: number;
  auth: string;
  listId: number;
  index: number;
}

export type SoakOperation = 'send' | 'send-scheduled' | 'lookup-id' | 'lookup-ref' | 'history' | 'list-send' | 'list-send-scheduled' | 'cancel' | 'account' | 'contacts';

export interface SoakRequest {
  account: SoakAccount;
  method: string;
  path: string;
  body?: unknown;
  ref?: string;
}

/** Share of each operation in the mix (sums to 100). */
const WEIGHTS: Array<[SoakOperation, number]> = [
  ['send', 20],
  ['send-scheduled', 12],
  ['lookup-id', 12],
  ['lookup-ref', 6],
  ['history', 8],
  ['list-send', 2],
  ['list-send-scheduled', 2],
  ['cancel', 14],
  ['account', 12],
  ['contacts', 12],
];

/** The n-th operation: a fixed pseudo-random sequence with the shares above (same run, same mix). */
export function pickOperation(n: number): SoakOperation {
  let x = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  let roll = (x ^ (x >>> 16)) % 100;
  for (const [op, weight] of WEIGHTS) {
    if (roll < weight) return op;
    roll -= weight;
  }
  return 'account';
}

const RECENT = 2000;

export class Mix {
  private n = 0;
  /** Recent message ids and custom_refs, with the account that may look them up. */
  private readonly messageIds: Remembered[] = [];
  private readonly refs: Remembered[] = [];
  /** Scheduled work still cancellable: custom_refs of scheduled sends, send ids of scheduled list-sends. */
  private readonly cancellable: Array<{ account: SoakAccount; body: Record<string, unknown> }> = [];

  constructor(private readonly accounts: SoakAccount[]) {}

  request(kind: SoakOperation): SoakRequest | null {
    const n = this.n++;
    const account = this.accounts[n % this.accounts.length];
    const later = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19);
    const ref = `soak-${account.index}-${n}`;
    const messages = (count: number, scheduled: boolean) =>
      Array.from({ length: count }, (_, i) => ({
        to: `04${String(10_000_000 + ((n * 7 + i * 13) % 89_999_999)).padStart(8, '0')}`,
        message: i % 3 === 0 ? `Hi {first_name}, your code is ${n}` : `Reminder ${n}: appointment tomorrow at 10am. Reply STOP to opt out.`,
        sender: 'Brand',
        custom_ref: ref,
        ...(scheduled ? { scheduled_for: later } : {}),
      }));
    switch (kind) {
      case 'send':
        return { account, method: 'POST', path: '/v1/messages', body: { messages: messages(1 + (n % 5), false) }, ref };
      case 'send-scheduled':
        return { account, method: 'POST', path: '/v1/messages', body: { messages: messages(1 + (n % 5), true) }, ref };
      case 'lookup-id':
      case 'lookup-ref': {
        const list = kind === 'lookup-id' ? this.messageIds : this.refs;
        if (list.length === 0) return this.request('account');
        const { owner, value } = list[(n * 31) % list.length];
        return { account: owner, method: 'GET', path: `/v1/messages?${kind === 'lookup-id' ? 'message_id' : 'custom_ref'}=${encodeURIComponent(value)}` };
      }
      case 'history':
        return { account, method: 'GET', path: `/v1/messages?limit=50&offset=${(n % 4) * 50}` };
      case 'list-send':
        return { account, method: 'POST', path: '/v1/list-send', body: { list_id: account.listId, sender: 'Brand', message: `Hi {first_name}, news ${n}` } };
      case 'list-send-scheduled':
        return { account, method: 'POST', path: '/v1/list-send', body: { list_id: account.listId, sender: 'Brand', message: `Hi {first_name}, later ${n}`, scheduled_for: later } };
      case 'cancel': {
        const target = this.cancellable.shift();
        return target ? { account: target.account, method: 'DELETE', path: '/v1/messages', body: target.body } : this.request('account');
      }
      case 'account':
        return { account, method: 'GET', path: '/v1/account' };
      case 'contacts':
        return { account, method: 'GET', path: `/v1/contacts?limit=20&first_name=Ann${n % 50}` };
    }
  }

  remember(kind: SoakOperation, request: SoakRequest, body: Record<string, unknown>): void {
    if (kind === 'send' || kind === 'send-scheduled') {
      for (const r of (body.results ?? []) as Array<{ message_id?: string }>) if (r.message_id) this.keep(this.messageIds, { owner: request.account, value: r.message_id });
      if (request.ref) this.keep(this.refs, { owner: request.account, value: request.ref });
      if (kind === 'send-scheduled' && request.ref) this.cancellable.push({ account: request.account, body: { custom_ref: request.ref } });
    }
    if (kind === 'list-send-scheduled' && typeof body.send_id === 'number') this.cancellable.push({ account: request.account, body: { send_id: body.send_id } });
  }

  private keep(list: Remembered[], value: Remembered): void {
    list.push(value);
    if (list.length > RECENT) list.shift();
  }
}

interface Remembered {
  owner: SoakAccount;
  value: string;
}
