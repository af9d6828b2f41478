import { Injectable, Logger } from '@nestjs/common';
import { ContactsService } from '../contacts/contacts.service';
import { CsvContact, CsvFormatError, parseContactsCsv, ParsedContactsCsv } from '../contacts/contacts-csv';
import { UnitOfWork } from '../database/unit-of-work';
import { ListsService } from '../lists/lists.service';
import { UnsubscribesService } from '../unsubscribes/unsubscribes.service';
import { ContactImportsRepository } from './contact-imports.repository';

/**
 * Valid rows written per transaction. Each chunk is three or four set-based statements and moves the
 * resume point with them; 5000 keeps a chunk well under a second on a busy machine (the page's
 * progress moves at least that often) while the per-statement overhead stays small next to the rows.
 */
export const IMPORT_CHUNK_ROWS = 5000;

/**
 * Runs one import in a worker. The file is parsed whole (it is deterministic, so a resumed run sees the
 * same rows in the same order), then its valid rows are written chunk by chunk: each chunk's contacts,
 * list memberships and the import's resume point commit together, so a worker stopped at any moment
 * resumes after the last committed chunk and never writes a row twice. Numbers on the account's
 * unsubscribe list are imported as contacts but never added to the list (as a STOP removes them from
 * every list), and reported.
 */
@Injectable()
export class ContactImportRunner {
  private readonly logger = new Logger(ContactImportRunner.name);

  constructor(
    private readonly uow: UnitOfWork,
    private readonly imports: ContactImportsRepository,
    private readonly contacts: ContactsService,
    private readonly lists: ListsService,
    private readonly unsubscribes: UnsubscribesService,
  ) {}

  async run(accountId: number, importId: number): Promise<void> {
    const work = await this.imports.findWork(accountId, importId);
    if (!work || (work.state !== 'queued' && work.state !== 'running')) return;
    let parsed: ParsedContactsCsv;
    try {
      parsed = parseContactsCsv(work.csv, work.mapping ?? undefined);
    } catch (err) {
      if (!(err instanceof CsvFormatError)) throw err;
      await this.imports.finish(accountId, importId, { state: 'failed', failure: err.message });
      return;
    }
    if (work.state === 'queued') {
      const totalRows = parsed.rows.length + parsed.invalid.length + parsed.duplicates.length;
      await this.imports.begin(accountId, importId, { totalRows, validRows: parsed.rows.length }, parsed);
    }
    while (await this.writeNextChunk(accountId, importId, parsed)) {
      // Each pass commits one chunk; the loop ends when the import is complete or no longer running.
    }
    this.logger.log({ msg: 'contact import finished', accountId, importId, rows: parsed.rows.length });
  }

  /** Writes the chunk after the resume point; false once there is nothing more to write. */
  private writeNextChunk(accountId: number, importId: number, parsed: ParsedContactsCsv): Promise<boolean> {
    return this.uow.run(async (tx) => {
      const progress = await this.imports.lockProgress(accountId, importId, tx);
      if (!progress || progress.state !== 'running') return false;
      const from = progress.processed_rows;
      const chunk = parsed.rows.slice(from, from + IMPORT_CHUNK_ROWS);
      if (chunk.length === 0) {
        await this.imports.finish(accountId, importId, { state: 'complete' }, tx);
        return false;
      }
      const optedOut = await this.unsubscribes.unsubscribedAmong(
        accountId,
        chunk.map((r) => r.number),
        tx,
      );
      const toList: CsvContact[] = [];
      const notToList: CsvContact[] = [];
      for (const row of chunk) (optedOut.has(row.number) ? notToList : toList).push(row);
      const listed = toList.length ? await this.contacts.importMany(accountId, toList, parsed.columns, tx) : { updatedIds: [], insertedIds: [] };
      const unlisted = notToList.length ? await this.contacts.importMany(accountId, notToList, parsed.columns, tx) : { updatedIds: [], insertedIds: [] };
      const memberIds = [...listed.updatedIds, ...listed.insertedIds];
      const addedToList = progress.list_id !== null && memberIds.length ? await this.lists.addMembers(progress.list_id, memberIds, tx) : 0;
      await this.imports.recordChunk(
        accountId,
        importId,
        {
          processedRows: from + chunk.length,
          added: listed.insertedIds.length + unlisted.insertedIds.length,
          updated: listed.updatedIds.length + unlisted.updatedIds.length,
          addedToList,
          optedOut: notToList.map((r) => ({ line: r.line, number: r.number })),
        },
        tx,
      );
      return true;
    });
  }
}
