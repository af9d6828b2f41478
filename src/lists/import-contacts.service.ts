import { Injectable } from '@nestjs/common';
import { parseContactsCsv } from '../contacts/contacts-csv';
import { ContactsService } from '../contacts/contacts.service';
import { ListsService } from './lists.service';
import { UnitOfWork } from '../database/unit-of-work';

export interface ImportReport {
  account_id: number;
  list_id: number;
  list_name: string;
  rows: number;
  added: number;
  updated: number;
  added_to_list: number;
  skipped_invalid: number;
  skipped_duplicates: number;
  invalid: Array<{ line: number; reason: string }>;
  duplicates: Array<{ line: number; number: string; first_line: number }>;
}

/**
 * Operator bulk import: a CSV into a list (created if needed). Parsing and checks happen in memory;
 * the database work is three set-based statements in one transaction, so 100000 rows take seconds
 * and a failure leaves nothing half-imported.
 */
@Injectable()
export class ImportContactsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly contacts: ContactsService,
    private readonly lists: ListsService,
  ) {}

  async importCsv(accountId: number, listName: string, csv: string): Promise<ImportReport> {
    const parsed = parseContactsCsv(csv);
    return this.uow.run(async (m) => {
      const list = await this.lists.getOrCreate(accountId, listName, m);
      const { updatedIds, insertedIds } = parsed.rows.length
        ? await this.contacts.importMany(accountId, parsed.rows, parsed.columns, m)
        : { updatedIds: [], insertedIds: [] };
      const addedToList = await this.lists.addMembers(list.id, [...updatedIds, ...insertedIds], m);
      return {
        account_id: accountId,
        list_id: list.id,
        list_name: list.name,
        rows: parsed.rows.length + parsed.invalid.length + parsed.duplicates.length,
        added: insertedIds.length,
        updated: updatedIds.length,
        added_to_list: addedToList,
        skipped_invalid: parsed.invalid.length,
        skipped_duplicates: parsed.duplicates.length,
        invalid: parsed.invalid,
        duplicates: parsed.duplicates,
      };
    });
  }
}
