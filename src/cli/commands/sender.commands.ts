import { AccountsModule } from '../../accounts/accounts.module';
import { AccountsService } from '../../accounts/accounts.service';
import { SENDER_TYPES } from '../../senders/sender.entity';
import { SendersModule } from '../../senders/senders.module';
import { SendersService } from '../../senders/senders.service';
import { positiveId } from '../cli-args';
import { defineCommand } from '../command';
import { oneOfFlag } from '../flag-values';

export const COMMANDS = [
  defineCommand({
    name: 'sender:add',
    summary: 'adds or re-activates a sender',
    description:
      'A dedicated number belongs to one account at a time: one that is active on another account (dedicated or shared) or assigned to another account in the inventory is refused, and so is another account’s dedicated number as shared.',
    options: {
      account: { type: 'string', value: 'ID', required: true, help: 'the account' },
      sender: { type: 'string', value: 'SENDER', required: true, help: 'a Sender ID or an Australian mobile' },
      type: { type: 'string', value: 'TYPE', help: `${SENDER_TYPES.join(', ')} (default: digits are dedicated, else alpha)` },
    },
    examples: ['--account 1 --sender HarbourBake', '--account 1 --sender 0412345678 --type own'],
    modules: [AccountsModule, SendersModule],
    run: async (app, v) => {
      const accountId = positiveId(v.account, 'account');
      await app.get(AccountsService).get(accountId);
      const sender = await app.get(SendersService).add(accountId, v.sender, oneOfFlag(v.type, 'type', SENDER_TYPES));
      return { account_id: accountId, sender: sender.value, type: sender.type, status: sender.status };
    },
  }),

  defineCommand({
    name: 'sender:remove',
    summary: 'removes a sender',
    options: {
      account: { type: 'string', value: 'ID', required: true, help: 'the account' },
      sender: { type: 'string', value: 'SENDER', required: true, help: 'the sender as listed' },
    },
    examples: ['--account 1 --sender HarbourBake'],
    modules: [AccountsModule, SendersModule],
    run: async (app, v) => {
      const accountId = positiveId(v.account, 'account');
      await app.get(AccountsService).get(accountId);
      return { account_id: accountId, sender: v.sender, removed: await app.get(SendersService).remove(accountId, v.sender) };
    },
  }),
];
