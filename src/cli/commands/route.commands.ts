import { AccountsModule } from '../../accounts/accounts.module';
import { AccountsService } from '../../accounts/accounts.service';
import { CarrierStatusModule } from '../../carriers/carrier-status.module';
import { CarrierStatusStore } from '../../carriers/carrier-status-store';
import { CarriersAdminService, type NamedMember } from '../../carriers/carriers-admin.service';
import { CarriersModule } from '../../carriers/carriers.module';
import { CarrierSettingsError, checkWhole } from '../../carriers/carrier-settings';
import { SENDER_KINDS, type SenderKindRule } from '../../carriers/route.entity';
import { RoutePlan, sharesNow } from '../../carriers/route-plan';
import { describeDestination, parseDestination, senderKindOf, type RouteRule } from '../../carriers/route-table';
import { failure } from '../../common/errors/error-catalogue';
import { Clock } from '../../common/time/clock';
import { ENV_CARRIER_ID } from '../../carriers/carrier-ids';
import { positiveId, UsageError } from '../cli-args';
import { defineCommand } from '../command';
import { oneOfFlag } from '../flag-values';
import { asUsage } from './carrier-flags';

/** `telstra`, `telstra:3` (weight) or `telstra:3:1` (weight, priority: lower is tried first). */
function memberFlag(text: string): NamedMember {
  const match = /^([a-z0-9][a-z0-9_-]{0,31})(?::(\d{1,4}))?(?::(\d{1,3}))?$/.exec(text.trim());
  if (!match) throw new CarrierSettingsError(`--carrier ${text} must be NAME[:WEIGHT[:PRIORITY]], e.g. telstra:3:0`);
  const weight = match[2] === undefined ? 1 : checkWhole(match[2], 'carrier weight', 1, 1000);
  const priority = match[3] === undefined ? 0 : checkWhole(match[3], 'carrier priority', 0, 100);
  return { carrier: match[1], weight, priority };
}

function accountFlag(text: string | undefined): number | null {
  return text === undefined || text === 'any' ? null : positiveId(text, 'account');
}

function ruleView(rule: RouteRule, names: Map<number, string>) {
  return {
    id: rule.id,
    position: rule.position,
    to: describeDestination(rule),
    sender: rule.senderKind,
    account: rule.accountId ?? 'any',
    carriers: rule.members.map((m) => ({ carrier: names.get(m.carrierId) ?? `#${m.carrierId} (removed)`, weight: m.weight, priority: m.priority })),
  };
}

export const COMMANDS = [
  defineCommand({
    name: 'route:add',
    summary: 'adds a routing rule: destinations, sender kind and account to a weighted set of carriers',
    description:
      'Rules are tried by position; the first that matches decides. Carriers of the lowest priority that are up share its messages by weight; when all of them are down the next priority takes over; when every one is down the messages wait. Unmatched messages (and all, while there is no rule) use every enabled carrier equally. Workers pick the change up within CARRIER_RELOAD_MS.',
    options: {
      to: { type: 'string', value: 'RANGE', help: 'a prefix of international digits (614) or a range of one length (61400-61449); default any' },
      sender: { type: 'string', value: 'KIND', help: `${SENDER_KINDS.join(', ')} (default any)` },
      account: { type: 'string', value: 'ID', help: 'only this account (default any)' },
      carrier: { type: 'string', value: 'NAME[:W[:P]]', multiple: true, help: 'a carrier (required) with its weight (default 1) and priority (default 0); repeat for more' },
      position: { type: 'string', value: 'N', help: 'where in the order (default last); later rules move down' },
    },
    examples: ['--to 614 --sender alphanumeric --carrier telstra:3 --carrier optus:1', '--to 61400-61449 --account 12 --carrier optus --carrier env:1:1'],
    modules: [CarriersModule, AccountsModule],
    run: (app, v) =>
      asUsage(async () => {
        const range = v.to === undefined || v.to === 'any' ? { toFrom: null, toThrough: null } : parseDestination(v.to);
        if (!range) throw new UsageError('--to must be a prefix of digits (614) or a range of two numbers of one length (61400-61449)');
        if (!v.carrier || v.carrier.length === 0) throw new UsageError('--carrier is required');
        const members = v.carrier.map(memberFlag);
        const position = v.position === undefined ? null : checkWhole(v.position, 'position', 1, 100_000);
        const senderKind: SenderKindRule = oneOfFlag(v.sender, 'sender', SENDER_KINDS) ?? 'any';
        const accountId = accountFlag(v.account);
        // `Account N not found` (exit 1) as everywhere else, not the routes table's foreign key violation.
        if (accountId !== null) await app.get(AccountsService).get(accountId);
        const admin = app.get(CarriersAdminService);
        const id = await admin.addRoute({ position, ...range, senderKind, accountId }, members);
        const names = await admin.namesById();
        return ruleView(
          (await admin.listRoutes()).find((r) => r.id === id)!,
          names,
        );
      }),
  }),

  defineCommand({
    name: 'route:list',
    summary: 'the routing rules in the order they are tried',
    options: {},
    examples: [''],
    modules: [CarriersModule],
    run: async (app) => {
      const admin = app.get(CarriersAdminService);
      const names = await admin.namesById();
      return { routes: (await admin.listRoutes()).map((r) => ruleView(r, names)), unmatched: 'every enabled carrier, weight 1 each' };
    },
  }),

  defineCommand({
    name: 'route:remove',
    summary: 'removes a routing rule (later rules move up)',
    options: { id: { type: 'string', value: 'ID', required: true, help: 'the rule, as route:list shows it' } },
    examples: ['--id 3'],
    modules: [CarriersModule],
    run: async (app, v) => {
      const id = positiveId(v.id, 'id');
      if (!(await app.get(CarriersAdminService).removeRoute(id))) throw failure('routeNotFound', id);
      return { id, removed: true };
    },
  }),

  defineCommand({
    name: 'route:explain',
    summary: 'which rule a message would match and which carrier would take it now, and why',
    description:
      'Carrier states come from what the running workers publish in Redis (carrier:status); with no worker reporting, every carrier counts as up and the answer says so; with Redis out of reach it fails. The environment carrier (env) counts when this shell has SMPP_HOST, SMPP_SYSTEM_ID and SMPP_PASSWORD, as a worker would.',
    options: {
      to: { type: 'string', value: 'NUMBER', required: true, help: 'the destination in international digits (61412345678)' },
      sender: { type: 'string', value: 'SENDER', required: true, help: 'the sender: a Sender ID or a number' },
      account: { type: 'string', value: 'ID', required: true, help: 'the sending account' },
    },
    examples: ['--to 61412345678 --sender HarbourBake --account 12'],
    modules: [CarriersModule, CarrierStatusModule],
    run: async (app, v) => {
      const to = v.to.replace(/^\+/, '');
      if (!/^\d{6,15}$/.test(to)) throw new UsageError('--to must be a number in international digits (61412345678)');
      const accountId = positiveId(v.account, 'account');
      const admin = app.get(CarriersAdminService);
      const names = await admin.namesById();
      const stored = await admin.stored();
      const usable = new Set(stored.filter((c) => c.enabled).map((c) => c.id));
      const config = app.config;
      if (config.smppHost && config.smppSystemId && config.smppPassword) usable.add(ENV_CARRIER_ID);
      const routes = await admin.listRoutes();
      const planned = new RoutePlan(routes, usable).explain(to, v.sender, accountId);
      // Without Redis there is no telling which carriers are up: the command fails (Redis at … is not reachable)
      // rather than answer as if no worker were reporting.
      const reports = await app.get(CarrierStatusStore).read(app.get(Clock).now().getTime());
      const states = new Map<number, string>();
      for (const r of reports) for (const c of r.carriers) if (states.get(c.id) !== 'up') states.set(c.id, c.reason ? `${c.state} (${c.reason})` : c.state);
      const known = reports.length > 0;
      const isUp = (id: number) => !known || states.get(id) === 'up';
      const shares = sharesNow(planned.members, isUp);
      const chosen = shares.filter((s) => s.share > 0).map((s) => `${names.get(s.carrierId)} ${Math.round(s.share * 100)}%`);
      return {
        to,
        sender_kind: senderKindOf(v.sender),
        account: accountId,
        rule: planned.rule ? ruleView(planned.rule, names) : 'none matched: the default route (every enabled carrier, weight 1 each)',
        skipped_rules: planned.skipped.map((id) => ({ id, why: 'matches, but none of its carriers is enabled' })),
        carriers: shares.map((s) => ({
          carrier: names.get(s.carrierId),
          priority: s.priority,
          weight: s.weight,
          state: known ? (states.get(s.carrierId) ?? 'not reported by any worker') : 'unknown (no worker reporting)',
          share_now: Math.round(s.share * 1000) / 1000,
        })),
        takes_it_now:
          planned.members.length === 0
            ? 'no carrier is configured: live messages go to the simulator (development only)'
            : chosen.length === 0
              ? 'none: every carrier of this route is down, so the message waits until one is up'
              : chosen.join(', '),
      };
    },
  }),
];
