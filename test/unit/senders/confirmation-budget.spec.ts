import { loadConfig } from '../../../src/config/app-config';
import { budgetLimits } from '../../../src/sender-identity/own-mobile/confirmation-budget';

describe(budgetLimits.name, () => {
  const config = loadConfig({});
  const base = { userId: null, email: 'x', isOwner: false, permissions: [] };

  it('charges an API request to its account, its key and its address, each per hour and per day, with the documented defaults', () => {
    const limits = budgetLimits({ ...base, accountId: 4, apiKeyId: 9, ip: '10.0.0.1' }, config);
    expect(limits.map((l) => [l.key, l.limit, l.windowMs / 3_600_000])).toEqual([
      ['confirm-texts:account:4:h', 5, 1],
      ['confirm-texts:account:4:d', 20, 24],
      ['confirm-texts:key:9:h', 3, 1],
      ['confirm-texts:key:9:d', 10, 24],
      ['confirm-texts:address:10.0.0.1:h', 5, 1],
      ['confirm-texts:address:10.0.0.1:d', 20, 24],
    ]);
  });

  it('charges a dashboard user (no key) to the account and the address only', () => {
    expect(budgetLimits({ ...base, accountId: 4, userId: 2, ip: '10.0.0.1' }, config).map((l) => l.scope)).toEqual(['account', 'account', 'address', 'address']);
  });
});
