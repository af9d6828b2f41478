/**
 * A route's carriers, seen by the dispatcher as one carrier.
 *
 * Choice: among the members the health board has up, those of the lowest `priority` value share the
 * messages by `weight` (smooth weighted round-robin, per message); when none of them is up, the next
 * priority takes over. When every member is down, members whose binds are up (down only for their error
 * share) still take traffic, since a throttling SMSC is better than none; when no member has a bind up,
 * the messages wait here (board.waiting() counts them) while the caller's lease fence
 * (SubmitOptions.mayHandOver) holds, and resolve as 'withheld' once it does not.
 *
 * Retry: a part a member refused for now (throttled, queue full, system error) goes again through
 * another member when one is up (else the same one, after its bind's throttle pause), at most
 * `retryAttempts` times handed back; after that it is given to a member to retry inside as a single
 * carrier does (a throttle is flow control, never a reason to fail a part). A permanent refusal fails
 * the part with the SMSC's command_status. A group of one member passes messages straight through: the
 * carrier retries throttled parts itself and waits for its binds, exactly as the one-carrier setup.
 *
 * Parts in doubt: when a member's last bind goes down, the parts it had sent without an answer come back
 * as 'in-doubt' and go through the next member. The SMSC may have taken them, so each such part can
 * reach the handset once more per carrier death: at most binds × window of the carrier that died (the
 * parts it can hold unanswered). Its parts not yet sent come back too and are sent once.
 */
import { countParts } from '../../../common/sms';
import type { Carrier, CarrierState, DeliveryReceipt, InboundSms, OutboundMessage, PartOutcomeKind, PartSubmission, SubmissionResult, SubmitOptions } from './carrier';
import type { CarrierHealthBoard } from './carrier-health-board';

export interface GroupMember {
  carrier: Carrier;
  weight: number;
  priority: number;
}

export interface CarrierGroupOptions {
  /** Times a part refused for now (or left in doubt) is handed back to be sent again elsewhere. */
  retryAttempts: number;
  id?: number;
  name?: string;
  /** While messages wait for a member, how often the group looks again. Default 100 ms. */
  pollMs?: number;
}

/** Some parts (or all, when `message.parts` is absent) of one message of the call, on their way. */
interface Entry {
  message: OutboundMessage;
  /** Index of the message in the submit() call. */
  index: number;
  attempts: number;
  /** The member that refused these parts last: another is preferred. */
  avoid: Carrier | null;
}

interface Slot {
  member: GroupMember;
  current: number;
}

export class CarrierGroup implements Carrier {
  readonly id: number;
  readonly name: string;
  private members: GroupMember[] = [];
  private slots: Slot[] = [];
  private readonly pollMs: number;
  private nextRef = Math.floor(Math.random() * 256);
  private closed = false;

  constructor(
    members: GroupMember[],
    private readonly board: CarrierHealthBoard,
    private readonly options: CarrierGroupOptions,
  ) {
    if (members.length === 0 && options.id === undefined) throw new RangeError('a carrier group with no member needs an id');
    this.setMembers(members);
    this.id = options.id ?? members[0].carrier.id;
    this.name = options.name ?? members.map((m) => m.carrier.name).join('+');
    this.pollMs = options.pollMs ?? 100;
  }

  /**
   * The route's carriers from now on (a reload changed them): messages waiting for a member and parts a
   * retired member gives back go through these. Calls already handed to a member finish there. With no
   * member, messages wait (as when every member is down). The same members again change nothing.
   */
  setMembers(members: GroupMember[]): void {
    for (const m of members) if (!(m.weight > 0)) throw new RangeError(`weight of carrier ${m.carrier.name} must be positive`);
    const sorted = [...members].sort((a, b) => a.priority - b.priority);
    const same = (a: GroupMember, b: GroupMember) => a.carrier === b.carrier && a.weight === b.weight && a.priority === b.priority;
    if (sorted.length === this.members.length && sorted.every((m, i) => same(m, this.members[i]))) return;
    for (const m of sorted) this.board.register(m.carrier);
    this.members = sorted;
    this.slots = sorted.map((member) => ({ member, current: 0 }));
  }

  async start(): Promise<void> {
    if (this.members.length === 0) return;
    await Promise.any(this.members.map((m) => (m.carrier.start ? m.carrier.start() : Promise.resolve())));
  }

  async submit(messages: OutboundMessage[], options?: SubmitOptions): Promise<SubmissionResult[]> {
    const withRefs = messages.map((m) => (m.ref === undefined ? { ...m, ref: this.nextRef++ & 0xff } : m));
    const parts: PartSubmission[][] = messages.map(() => []);
    const only = this.members.length === 1 ? this.members[0] : null;
    if (only && !isRetired(only.carrier)) {
      // One member: straight through, as the one-carrier setup (it retries and waits for its binds itself).
      // Only a member retired under the call (carrier:update, disable, remove) gives parts back: they go on below.
      const results = await only.carrier.submit(withRefs);
      const again = this.takeReturned(results, withRefs, parts, only.carrier, { attempts: 0, recordHealth: false });
      if (again.length === 0) return results;
      await this.route(again, parts, options);
    } else {
      for (const m of this.members) m.carrier.start?.().catch(() => undefined);
      await this.route(
        withRefs.map((message, index) => ({ message, index, attempts: 0, avoid: null })),
        parts,
        options,
      );
    }
    return messages.map((m, i) => ({ messageId: m.messageId, parts: parts[i].sort((a, b) => a.partNumber - b.partNumber) }));
  }

  onReceipt(handler: (r: DeliveryReceipt) => void | Promise<void>): void {
    for (const m of this.members) m.carrier.onReceipt(handler);
  }

  onInbound(handler: (m: InboundSms) => void | Promise<void>): void {
    for (const m of this.members) m.carrier.onInbound(handler);
  }

  state(): CarrierState {
    const sum: CarrierState = { kind: 'group', bindsConfigured: 0, bindsUp: 0, inFlight: 0, submitted: 0, throttled: 0, reconnects: 0 };
    for (const m of this.members) {
      const s = m.carrier.state();
      sum.bindsConfigured += s.bindsConfigured;
      sum.bindsUp += s.bindsUp;
      sum.inFlight += s.inFlight;
      sum.submitted += s.submitted;
      sum.throttled += s.throttled;
      sum.reconnects += s.reconnects;
    }
    return sum;
  }

  /** Messages still waiting for a member resolve as 'withheld'. The members are not closed: routes share them. */
  async close(): Promise<void> {
    this.closed = true;
  }

  /** Sends each entry through the member chosen for it (one submit per member), and what comes back, again. */
  private async route(entries: Entry[], parts: PartSubmission[][], options: SubmitOptions | undefined): Promise<void> {
    const byMember = new Map<GroupMember, Entry[]>();
    const waiting: Entry[] = [];
    const usable = this.usable();
    for (const entry of entries) {
      const member = this.choose(usable, entry.avoid);
      if (!member) {
        waiting.push(entry);
        continue;
      }
      const list = byMember.get(member);
      if (list) list.push(entry);
      else byMember.set(member, [entry]);
    }
    const work: Promise<void>[] = [];
    for (const [member, list] of byMember) work.push(this.sendThrough(member, list, parts, options));
    if (waiting.length > 0) work.push(this.waitForMember(waiting, parts, options));
    await Promise.all(work);
  }

  private async sendThrough(member: GroupMember, entries: Entry[], parts: PartSubmission[][], options: SubmitOptions | undefined): Promise<void> {
    const carrier = member.carrier;
    const handBack = entries.map((e) => e.attempts < this.options.retryAttempts);
    const mixed = handBack.some((h) => h !== handBack[0]);
    const results = mixed
      ? await Promise.all(entries.map((e, i) => carrier.submit([e.message], { handBack: handBack[i] }).then((r) => r[0])))
      : await carrier.submit(
          entries.map((e) => e.message),
          { handBack: handBack[0] },
        );
    const again: Entry[] = [];
    results.forEach((result, i) => {
      const entry = entries[i];
      again.push(...this.takeReturned([result], [entry.message], parts, carrier, { attempts: entry.attempts + 1, recordHealth: true, firstIndex: entry.index }));
    });
    if (again.length > 0) await this.route(again, parts, options);
  }

  /**
   * Files each part's outcome: final ones into `parts`, those to send again (refused for now, in doubt)
   * as entries. A retired member's answers say nothing of its SMSC's health (its successor has its id).
   */
  private takeReturned(
    results: SubmissionResult[],
    messages: OutboundMessage[],
    parts: PartSubmission[][],
    carrier: Carrier,
    { attempts, recordHealth, firstIndex = 0 }: { attempts: number; recordHealth: boolean; firstIndex?: number },
  ): Entry[] {
    const again: Entry[] = [];
    const record = recordHealth && !isRetired(carrier);
    results.forEach((result, i) => {
      const index = firstIndex + i;
      const retry: number[] = [];
      for (const part of result.parts) {
        const outcome: PartOutcomeKind = part.outcome ?? (part.smscId ? 'accepted' : 'permanent');
        if (record) this.board.record(carrier.id, outcome);
        if (outcome === 'temporary' || outcome === 'in-doubt') retry.push(part.partNumber);
        else parts[index].push(part);
      }
      if (retry.length > 0) again.push({ message: { ...messages[i], parts: retry }, index, attempts, avoid: carrier });
    });
    return again;
  }

  /** Every member is down: waits for one while the caller's fence allows, else gives the parts back unsent. */
  private async waitForMember(entries: Entry[], parts: PartSubmission[][], options: SubmitOptions | undefined): Promise<void> {
    const partCount = entries.reduce((n, e) => n + (e.message.parts?.length ?? countParts(e.message.text, e.message.encoding)), 0);
    this.board.noteWaiting(entries.length, partCount);
    try {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, this.pollMs));
        if (this.closed || (options?.mayHandOver && !options.mayHandOver())) break;
        if (this.usable().some((u) => u.length > 0)) {
          this.board.noteWaiting(-entries.length, -partCount);
          return this.route(entries, parts, options);
        }
      }
    } catch (err) {
      this.board.noteWaiting(-entries.length, -partCount);
      throw err;
    }
    this.board.noteWaiting(-entries.length, -partCount);
    for (const e of entries) {
      const total = countParts(e.message.text, e.message.encoding);
      const numbers = e.message.parts ?? Array.from({ length: total }, (_, i) => i + 1);
      for (const n of numbers) {
        parts[e.index].push({ partNumber: n, totalParts: total, smscId: null, carrierId: this.id, outcome: 'withheld', error: 'no carrier of the route was up' });
      }
    }
  }

  /**
   * The members that may take traffic now, by preference: [up, reachable-but-down]. Either may be empty.
   * Read once per routing decision (the board asks each carrier for its binds).
   */
  private usable(): [Slot[], Slot[]] {
    const up: Slot[] = [];
    const reachable: Slot[] = [];
    for (const slot of this.slots) {
      if (isRetired(slot.member.carrier)) continue;
      if (this.board.isUp(slot.member.carrier)) up.push(slot);
      else if (this.board.isReachable(slot.member.carrier)) reachable.push(slot);
    }
    return [up, reachable];
  }

  /** The member for one entry: lowest priority of the best usable tier, weighted, another than `avoid` when possible. */
  private choose(usable: [Slot[], Slot[]], avoid: Carrier | null): GroupMember | null {
    for (const tier of usable) {
      if (tier.length === 0) continue;
      const others = avoid ? tier.filter((s) => s.member.carrier !== avoid) : tier;
      const candidates = others.length > 0 ? others : tier;
      const priority = candidates[0].member.priority; // slots are sorted by priority
      return pickWeighted(candidates.filter((s) => s.member.priority === priority));
    }
    return null;
  }
}

/** A member closing after carrier:update, disable or remove: it takes no more parts and gives back what it had not sent. */
function isRetired(carrier: Carrier): boolean {
  return carrier.retired?.() === true;
}

/** Smooth weighted round-robin (as nginx): each pick raises every slot by its weight and lowers the chosen one by the total. */
function pickWeighted(slots: Slot[]): GroupMember {
  if (slots.length === 1) return slots[0].member;
  let best = slots[0];
  let total = 0;
  for (const s of slots) {
    s.current += s.member.weight;
    total += s.member.weight;
    if (s.current > best.current) best = s;
  }
  best.current -= total;
  return best.member;
}
