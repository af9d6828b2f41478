import { hundredthsToNumber } from '../billing/money';
import type { Account } from './account.entity';

export function toAccountView(account: Account) {
  return {
    status: 'complete' as const,
    credit_balance: hundredthsToNumber(account.creditBalance),
    name: account.name,
    test_account: account.isTest,
  };
}
