import { DEFAULT_ROUTE_ID, RoutePlan, sharesNow } from '../../../src/carriers/route-plan';
import { destinationMatches, describeDestination, parseDestination, RouteTable, senderKindOf, type RouteRule } from '../../../src/carriers/route-table';

function rule(id: number, position: number, over: Partial<RouteRule> = {}): RouteRule {
  return { id, position, toFrom: null, toThrough: null, senderKind: 'any', accountId: null, members: [{ carrierId: 1, weight: 1, priority: 0 }], ...over };
}

describe(RouteTable.name, () => {
  it('reads a prefix and a range of one length, and refuses the rest', () => {
    expect(parseDestination('614')).toEqual({ toFrom: '614', toThrough: '614' });
    expect(parseDestination('+61400-61449')).toEqual({ toFrom: '61400', toThrough: '61449' });
    expect(parseDestination('6140-61449')).toBeNull();
    expect(parseDestination('61449-61400')).toBeNull();
    expect(parseDestination('61a')).toBeNull();
    expect(parseDestination('')).toBeNull();
  });

  it('matches a number on its leading digits within the range, inclusive at both ends', () => {
    const r = { toFrom: '61400', toThrough: '61449' };
    expect(destinationMatches(r, '61400000000')).toBe(true);
    expect(destinationMatches(r, '61449999999')).toBe(true);
    expect(destinationMatches(r, '61450000000')).toBe(false);
    expect(destinationMatches(r, '61399999999')).toBe(false);
    expect(destinationMatches(r, '6140')).toBe(false);
    expect(destinationMatches({ toFrom: null, toThrough: null }, '1')).toBe(true);
    expect(describeDestination(r)).toBe('61400-61449');
    expect(describeDestination({ toFrom: '614', toThrough: '614' })).toBe('614');
  });

  it('tells numeric senders from Sender IDs as the SMPP source addressing does', () => {
    expect(senderKindOf('61412345678')).toBe('numeric');
    expect(senderKindOf('Harbour')).toBe('alphanumeric');
    expect(senderKindOf('0412 345')).toBe('alphanumeric');
  });

  it('takes the first rule by position whose account, sender kind and destination all match', () => {
    const table = new RouteTable([rule(1, 3), rule(2, 1, { accountId: 7, toFrom: '614', toThrough: '614' }), rule(3, 2, { senderKind: 'numeric', toFrom: '61', toThrough: '61' })]);
    expect(table.match('61412345678', 'Brand', 7)?.id).toBe(2);
    expect(table.match('61412345678', 'Brand', 8)?.id).toBe(1);
    expect(table.match('61412345678', '61400000000', 8)?.id).toBe(3);
    expect(table.match('61412345678', '61400000000', 7)?.id).toBe(2);
    expect(new RouteTable([rule(4, 1, { toFrom: '44', toThrough: '44' })]).match('61412345678', 'X', 1)).toBeNull();
  });
});

describe(RoutePlan.name, () => {
  it('sends unmatched messages, and all of them while there is no rule, to every usable carrier at weight 1', () => {
    const plan = new RoutePlan([], new Set([3, 0, 1]));
    const route = plan.routeFor('61412345678', 'X', 1);
    expect(route.id).toBe(DEFAULT_ROUTE_ID);
    expect(route.members).toEqual([
      { carrierId: 0, weight: 1, priority: 0 },
      { carrierId: 1, weight: 1, priority: 0 },
      { carrierId: 3, weight: 1, priority: 0 },
    ]);
  });

  it('leaves out members that are not usable and passes over a rule left with none, naming it in explain', () => {
    const rules = [
      rule(1, 1, { members: [{ carrierId: 5, weight: 1, priority: 0 }] }),
      rule(2, 2, {
        members: [
          { carrierId: 1, weight: 2, priority: 0 },
          { carrierId: 6, weight: 1, priority: 0 },
        ],
      }),
    ];
    const plan = new RoutePlan(rules, new Set([1]));
    expect(plan.routeFor('61412345678', 'X', 1)).toMatchObject({ id: 2, members: [{ carrierId: 1, weight: 2, priority: 0 }] });
    expect(plan.explain('61412345678', 'X', 1)).toMatchObject({ id: 2, skipped: [1] });
    expect(plan.routes().map((r) => r.id)).toEqual([2, DEFAULT_ROUTE_ID]);
  });

  it('gives the same route object to every message of a rule (the dispatcher groups by it)', () => {
    const plan = new RoutePlan([rule(1, 1)], new Set([1]));
    expect(plan.routeFor('61412345678', 'X', 1)).toBe(plan.routeFor('61499999999', 'Y', 2));
  });
});

describe(sharesNow.name, () => {
  const members = [
    { carrierId: 1, weight: 3, priority: 0 },
    { carrierId: 2, weight: 1, priority: 0 },
    { carrierId: 3, weight: 1, priority: 1 },
  ];

  it('shares by weight among the lowest priority that is up', () => {
    expect(sharesNow(members, () => true).map((s) => s.share)).toEqual([0.75, 0.25, 0]);
    expect(sharesNow(members, (id) => id !== 1).map((s) => s.share)).toEqual([0, 1, 0]);
  });

  it('falls back to the next priority when the first are all down, and to none (waiting) when all are', () => {
    expect(sharesNow(members, (id) => id === 3).map((s) => s.share)).toEqual([0, 0, 1]);
    expect(sharesNow(members, () => false).map((s) => s.share)).toEqual([0, 0, 0]);
  });
});
