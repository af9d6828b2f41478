import { Injectable } from '@nestjs/common';
import { parseContactsCsv } from '../contacts/contacts-csv';
import { ContactsService } from '../contacts/contacts.service';
import { ImportReport, toImportReport } from './lists.mapper';
import { ListsService } from './lists.service';
import { UnitOfWork } from '../database/unit-of-work';

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
      const { updatedIds, insertedIds } = parsed.rows.length ? await this.contacts.importMany(accountId, parsed.rows, parsed.columns, m) : { updatedIds: [], insertedIds: [] };
      const addedToList = await this.lists.addMembers(list.id, [...updatedIds, ...insertedIds], m);
      return toImportReport(accountId, list, parsed, { inserted: insertedIds.length, updated: updatedIds.length, addedToList });
    });
  }
}
