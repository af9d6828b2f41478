import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ConsentService } from '../consent/consent.service';
import { ContactsService } from '../contacts/contacts.service';
import { CsvContact, CsvFormatError, parseContactsCsv, ParsedContactsCsv } from '../contacts/contacts-csv';
import { UnitOfWork } from '../database/unit-of-work';
import { ListsService } from '../lists/lists.service';
import { UnsubscribesService } from '../unsubscribes/unsubscribes.service';
import { ContactImportsRepository, ContactImportWork } from './contact-imports.repository';

/**
 * Valid rows written per transaction. Each chunk is three or four set-based statements and moves the
 * resume point with them; 5000 keeps a chunk well under a second on a busy machine (the page's
 * progress moves at least that often) while the per-statement overhead stays small next to the rows.
 */
export const IMPORT_CHUNK_ROWS = 5000;

/** The longest error text kept as an import's reason (a database error can quote a whole statement). */
const ERROR_TEXT_MAX = 300;

/** The reason a failed import shows once its runs are used up. */
export function attemptsExhausted(attempts: number, lastError: string | null): string {
  return lastError
    ? `The import stopped after ${attempts} attempts; the last one failed: ${lastError}`
    : `The import stopped after ${attempts} attempts; its worker stopped before finishing each time`;
}

/**
 * Runs one import in a worker. The file is parsed whole (it is deterministic, so a resumed run sees the
 * same rows in the same order), then its valid rows are written chunk by chunk: each chunk's contacts,
 * list memberships and the import's resume point commit together, so a worker stopped at any moment
 * resumes after the last committed chunk and never writes a row twice. Numbers on the account's
 * unsubscribe list are imported as contacts but never added to the list (as a STOP removes them from
 * every list), and reported. An import with a stated consent source appends an opt-in consent record
 * for each other number in the chunk's transaction (one statement a chunk).
 *
 * Every run is counted before it starts (CONTACT_IMPORT_MAX_ATTEMPTS), so an import that keeps failing,
 * or keeps killing its worker, ends `failed` with its last error instead of being retried for ever.
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
    private readonly consent: ConsentService,
    private readonly config: AppConfig,
  ) {}

  async run(accountId: number, importId: number): Promise<void> {
    const work = await this.imports.findWork(accountId, importId);
    if (!work || (work.state !== 'queued' && work.state !== 'running')) return;
    const maxAttempts = this.config.contactImportMaxAttempts;
    if (work.attempts >= maxAttempts) {
      await this.imports.finish(accountId, importId, { state: 'failed', failure: attemptsExhausted(work.attempts, work.last_error) });
      return;
    }
    if (!(await this.imports.startAttempt(accountId, importId))) return;
    try {
      await this.runAttempt(accountId, importId, work);
    } catch (err) {
      const message = String((err as Error).message ?? err).slice(0, ERROR_TEXT_MAX);
      this.logger.warn({ msg: 'contact import run failed', accountId, importId, attempt: work.attempts + 1, err: message });
      if (work.attempts + 1 >= maxAttempts) {
        await this.imports.finish(accountId, importId, { state: 'failed', failure: attemptsExhausted(work.attempts + 1, message) });
        return;
      }
      await this.imports.recordError(accountId, importId, message);
      throw err;
    }
  }

  private async runAttempt(accountId: number, importId: number, work: ContactImportWork): Promise<void> {
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
    while (await this.writeNextChunk(accountId, importId, parsed, work)) {
      // Each pass commits one chunk; the loop ends when the import is complete or no longer running.
    }
    this.logger.log({ msg: 'contact import finished', accountId, importId, rows: parsed.rows.length });
  }

  /** Writes the chunk after the resume point; false once there is nothing more to write. */
  private writeNextChunk(accountId: number, importId: number, parsed: ParsedContactsCsv, work: ContactImportWork): Promise<boolean> {
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
      if (work.consent_source !== null) {
        const evidence = { apiKeyId: work.api_key_id, userId: work.user_id, detail: `import ${importId}: ${work.consent_source}` };
        await this.consent.recordMany(
          accountId,
          toList.map((r) => r.number),
          'opt_in',
          'import',
          evidence,
          tx,
        );
      }
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
