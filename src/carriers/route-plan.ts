/**
 * Which carriers a message may use, from the route table and the carriers that exist: shared by the
 * worker (building one carrier group per route) and route:explain (saying why). Pure.
 *
 * - The first rule (by position) matching destination, sender kind and account decides.
 * - A rule's members that are disabled or removed (or `env` when SMPP_* is not set) are left out; a rule
 *   left with none is skipped, so a disabled carrier never strands the traffic of its ranges (a carrier
 *   that is enabled but down keeps its rule: its messages move to another member or wait for it).
 * - No rule matching (or no rule at all): the default route, every usable carrier (env and each enabled
 *   row) at weight 1, priority 0.
 */
import { ENV_CARRIER_ID } from './carrier-ids';
import { RouteTable, type RouteMember, type RouteRule } from './route-table';

export const DEFAULT_ROUTE_ID = 0;

export interface PlannedRoute {
  /** The rule's id, or DEFAULT_ROUTE_ID. */
  id: number;
  rule: RouteRule | null;
  members: RouteMember[];
  /** Rules passed over before this one because none of their carriers is usable. */
  skipped: number[];
}

export class RoutePlan {
  private readonly table: RouteTable;
  private readonly allRules: RouteTable;
  private readonly usableRules: Map<number, RouteMember[]>;
  readonly defaultRoute: PlannedRoute;
  private readonly cache = new Map<string, PlannedRoute>();

  /** `usable`: ids of the carriers a worker can send through (env when configured, enabled rows). */
  constructor(rules: readonly RouteRule[], usable: ReadonlySet<number>) {
    this.usableRules = new Map(rules.map((r) => [r.id, r.members.filter((m) => usable.has(m.carrierId))]));
    // A rule with no usable member is dropped from the table; route:explain still names it (skipped).
    this.table = new RouteTable(rules.filter((r) => this.usableRules.get(r.id)!.length > 0));
    this.allRules = new RouteTable(rules);
    const all = [...usable].sort((a, b) => (a === ENV_CARRIER_ID ? -1 : b === ENV_CARRIER_ID ? 1 : a - b));
    this.defaultRoute = { id: DEFAULT_ROUTE_ID, rule: null, members: all.map((carrierId) => ({ carrierId, weight: 1, priority: 0 })), skipped: [] };
  }

  /** Every route a message can take (the default last), for building groups. */
  routes(): PlannedRoute[] {
    return [...this.table.rules.map((rule) => ({ id: rule.id, rule, members: this.usableRules.get(rule.id)!, skipped: [] })), this.defaultRoute];
  }

  /** The route of one message: hot path (a few prefix comparisons; no allocation once cached per rule). */
  routeFor(to: string, sender: string, accountId: number): PlannedRoute {
    const rule = this.table.match(to, sender, accountId);
    if (!rule) return this.defaultRoute;
    let planned = this.cache.get(String(rule.id));
    if (!planned) {
      planned = { id: rule.id, rule, members: this.usableRules.get(rule.id)!, skipped: [] };
      this.cache.set(String(rule.id), planned);
    }
    return planned;
  }

  /** The same, also naming the matching rules passed over for having no usable carrier (route:explain). */
  explain(to: string, sender: string, accountId: number): PlannedRoute {
    const chosen = this.routeFor(to, sender, accountId);
    const skipped: number[] = [];
    for (const rule of this.allRules.rules) {
      if (rule.id === chosen.id) break;
      if (this.usableRules.get(rule.id)!.length === 0 && new RouteTable([rule]).match(to, sender, accountId)) skipped.push(rule.id);
    }
    return { ...chosen, skipped };
  }
}

/** How the members of a route share a message right now, given which carriers are up. */
export interface MemberShare {
  carrierId: number;
  weight: number;
  priority: number;
  up: boolean;
  /** Share of the route's messages it takes now (0-1). */
  share: number;
}

/** The lowest priority among members that are up shares by weight; every member down: none takes it (it waits). */
export function sharesNow(members: readonly RouteMember[], isUp: (carrierId: number) => boolean): MemberShare[] {
  const up = members.filter((m) => isUp(m.carrierId));
  const top = up.length === 0 ? null : Math.min(...up.map((m) => m.priority));
  const active = up.filter((m) => m.priority === top);
  const total = active.reduce((s, m) => s + m.weight, 0);
  return members.map((m) => ({ ...m, up: isUp(m.carrierId), share: active.includes(m) ? m.weight / total : 0 }));
}
