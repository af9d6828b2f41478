import { AccountsModule } from '../../accounts/accounts.module';
import { AccountsService } from '../../accounts/accounts.service';
import { ImportContactsService } from '../../lists/import-contacts.service';
import { ListsModule } from '../../lists/lists.module';
import { positiveId } from '../cli-args';
import { defineCommand } from '../command';
import { readFileFlag } from './read-file';

export const COMMANDS = [
  defineCommand({
    name: 'contacts:import',
    summary: 'bulk import of a CSV into a list, set-based; reports added, updated, invalid lines and duplicates',
    description: 'The header row names contact fields; `number` is required.',
    options: {
      account: { type: 'string', value: 'ID', required: true, help: 'the account' },
      list: { type: 'string', value: 'NAME', required: true, help: 'the list (made if missing)' },
      file: { type: 'string', value: 'FILE', required: true, help: 'the CSV file' },
    },
    examples: ['--account 1 --list Customers --file contacts.csv'],
    modules: [AccountsModule, ListsModule],
    run: async (app, v) => {
      const accountId = positiveId(v.account, 'account');
      await app.get(AccountsService).get(accountId);
      const csv = await readFileFlag(v.file);
      return app.get(ImportContactsService).importCsv(accountId, v.list, csv);
    },
  }),
];
