import path from 'node:path';
import { AccountsModule } from '../../accounts/accounts.module';
import { AccountsService } from '../../accounts/accounts.service';
import { ContactImportsModule } from '../../contact-imports/contact-imports.module';
import { toOperatorImportReport } from '../../contact-imports/contact-imports.mapper';
import { ContactImportsService } from '../../contact-imports/contact-imports.service';
import { CONSENT_SOURCE_MAX } from '../../contact-imports/dto/contact-import.dto';
import { LIST_NAME_MAX_LENGTH } from '../../lists/dto/list.dto';
import { positiveId } from '../cli-args';
import { defineCommand } from '../command';
import { CommandError } from '../command-services';
import { readFileFlag } from './read-file';

export const COMMANDS = [
  defineCommand({
    name: 'contacts:import',
    summary: 'bulk import of a CSV into a list through the import job (as the API and the page); reports added, updated, invalid lines, duplicates and opted-out numbers',
    description:
      'The header row names contact fields; `number` is required. The import is stored like one from the API (origin cli) and run here, chunk by chunk; a worker finishes it if this stops. Numbers on the unsubscribe list are imported but not added to the list. With --consent-source each other number gets an opt-in consent record.',
    options: {
      account: { type: 'string', value: 'ID', required: true, help: 'the account' },
      list: { type: 'string', value: 'NAME', required: true, maxLength: LIST_NAME_MAX_LENGTH, help: 'the list (made if missing)' },
      file: { type: 'string', value: 'FILE', required: true, help: 'the CSV file' },
      'consent-source': {
        type: 'string',
        value: 'TEXT',
        maxLength: CONSENT_SOURCE_MAX,
        help: 'how the people in the file agreed to hear from the account (records opt-in consent)',
      },
    },
    examples: ['--account 1 --list Customers --file contacts.csv', '--account 1 --list Members --file members.csv --consent-source "Membership form"'],
    modules: [AccountsModule, ContactImportsModule],
    run: async (app, v) => {
      const accountId = positiveId(v.account, 'account');
      await app.get(AccountsService).get(accountId);
      const csv = await readFileFlag(v.file);
      const report = await app
        .get(ContactImportsService)
        .importNow(accountId, { csv, listName: v.list, origin: 'cli', fileName: path.basename(v.file), consentSource: v['consent-source'] });
      if (report.state !== 'complete') throw new CommandError(`import ${report.id} ${report.state}: ${report.failure ?? 'not finished'}`);
      return toOperatorImportReport(accountId, report);
    },
  }),
];
