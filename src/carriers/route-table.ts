/**
 * Route matching, pure and cheap enough for the dispatch hot path: the rules are read once per reload
 * (with the carriers), and the rules that can apply to an (account, sender kind) are filtered once and
 * cached, so a message costs a walk over those few rules comparing digit prefixes, and no query.
 */
import type { SenderKindRule } from './route.entity';

export type SenderKind = 'alphanumeric' | 'numeric';

export interface RouteMember {
  carrierId: number;
  weight: number;
  priority: number;
}

export interface RouteRule {
  id: number;
  position: number;
  /** Both null: any destination. Otherwise digits of one length; a number matches when its first that-many digits are within. */
  toFrom: string | null;
  toThrough: string | null;
  senderKind: SenderKindRule;
  accountId: number | null;
  members: RouteMember[];
}

/** Senders made only of digits are numbers; anything else is an alphanumeric Sender ID (as the SMPP source addressing). */
export function senderKindOf(sender: string): SenderKind {
  return /^\d+$/.test(sender) ? 'numeric' : 'alphanumeric';
}

/** Whether `to` (international digits, no '+') falls in the rule's destination range. */
export function destinationMatches(rule: Pick<RouteRule, 'toFrom' | 'toThrough'>, to: string): boolean {
  if (rule.toFrom === null || rule.toThrough === null) return true;
  if (to.length < rule.toFrom.length) return false;
  // Same-length digit strings compare as their numbers do.
  const head = to.slice(0, rule.toFrom.length);
  return head >= rule.toFrom && head <= rule.toThrough;
}

/** How a rule's destination reads: `any`, `614` (a prefix) or `61400-61499`. */
export function describeDestination(rule: Pick<RouteRule, 'toFrom' | 'toThrough'>): string {
  if (rule.toFrom === null || rule.toThrough === null) return 'any';
  return rule.toFrom === rule.toThrough ? rule.toFrom : `${rule.toFrom}-${rule.toThrough}`;
}

/**
 * `614` (a prefix) or `61400-61499` (first and last digits of one length) as a rule's range; null when
 * the text is neither. A leading '+' is allowed and dropped.
 */
export function parseDestination(text: string): { toFrom: string; toThrough: string } | null {
  const match = /^\+?(\d{1,15})(?:-\+?(\d{1,15}))?$/.exec(text.trim());
  if (!match) return null;
  const from = match[1];
  const through = match[2] ?? from;
  if (from.length !== through.length || from > through) return null;
  return { toFrom: from, toThrough: through };
}

export class RouteTable {
  /** Rules in the order they are tried. */
  readonly rules: readonly RouteRule[];
  private readonly candidates = new Map<string, RouteRule[]>();

  constructor(rules: readonly RouteRule[]) {
    this.rules = [...rules].sort((a, b) => a.position - b.position || a.id - b.id);
  }

  /** The first rule matching the message, or null (the default group takes it). */
  match(to: string, sender: string, accountId: number): RouteRule | null {
    for (const rule of this.candidatesFor(accountId, senderKindOf(sender))) {
      if (destinationMatches(rule, to)) return rule;
    }
    return null;
  }

  private candidatesFor(accountId: number, kind: SenderKind): RouteRule[] {
    const key = `${accountId}:${kind}`;
    let list = this.candidates.get(key);
    if (!list) {
      list = this.rules.filter((r) => (r.accountId === null || r.accountId === accountId) && (r.senderKind === 'any' || r.senderKind === kind));
      // Bounded by accounts × 2 between reloads; a reload builds a new table.
      this.candidates.set(key, list);
    }
    return list;
  }
}
