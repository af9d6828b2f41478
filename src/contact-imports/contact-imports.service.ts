import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { checkMapping, ColumnMapping, CsvFormatError, mappingFromHeader, readCsvHead } from '../contacts/contacts-csv';
import { UnitOfWork } from '../database/unit-of-work';
import { ListsService } from '../lists/lists.service';
import { ContactImportQueue } from '../queues/contact-import-queue';
import type { ContactImportOrigin } from './contact-import.entity';
import { ContactImportRunner } from './contact-import-runner';
import { ContactImportRow, ContactImportsRepository } from './contact-imports.repository';
import { ContactImportView, toContactImportView } from './contact-imports.mapper';

export interface CreateContactImportCommand {
  csv: string;
  /** Contact field → column header; absent: the header names are the field names. */
  mapping?: unknown;
  listId?: number;
  origin: ContactImportOrigin;
  fileName?: string;
  /** How the numbers consented; blank: none (no consent records). */
  consentSource?: string;
  /** Evidence of who started it. */
  apiKeyId?: number;
  userId?: number;
  /** The list by name (made if missing), as the operator CLI names it; instead of listId. */
  listName?: string;
  /** false: stored ready to run, but no job is queued (the operator CLI runs it itself; the sweep would find it otherwise). */
  enqueue?: boolean;
}

/** A stated consent source as kept: trimmed, and blank is none. */
export function consentSourceOf(text: string | undefined): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** The list an import started on the page fills: one of the account's, a new one by name, or none. */
export type ImportListChoice = { listId: number } | { newListName: string } | null;

/** Lines the page shows of a file before its mapping is chosen. */
export const PREVIEW_ROWS = 5;

/** Imports one purge statement deletes: each is a short transaction however many have expired. */
const PURGE_BATCH = 500;

/** A CSV problem found before the job starts (the header, the mapping) as the 400 it is. */
function checked<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof CsvFormatError) throw failure('contactImportInvalid', err.message);
    throw err;
  }
}

/**
 * Contact imports as jobs: an import is stored with its file, then a worker runs it (ContactImportRunner).
 * The header row and the mapping are checked here, so a request or a form with a wrong column is
 * refused at once; the lines themselves are checked by the job and reported line by line.
 */
@Injectable()
export class ContactImportsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly imports: ContactImportsRepository,
    private readonly lists: ListsService,
    private readonly queue: ContactImportQueue,
    private readonly runner: ContactImportRunner,
  ) {}

  /**
   * An import run here and now, through the same job code a worker runs (the operator CLI, benchmarks):
   * stored like any other (so a worker's sweep finishes it if this process stops), then run in this
   * process chunk by chunk; answers its report.
   */
  async importNow(accountId: number, command: Omit<CreateContactImportCommand, 'enqueue'>): Promise<ContactImportRow> {
    const created = await this.create(accountId, { ...command, enqueue: false });
    await this.runner.run(accountId, created.import_id);
    return this.report(accountId, created.import_id);
  }

  /** Stores an import ready to run and enqueues it after the commit (the API, and the page once mapped). */
  async create(accountId: number, command: CreateContactImportCommand): Promise<ContactImportView> {
    const mapping = checked(() => {
      const { header } = readCsvHead(command.csv, 0);
      return command.mapping === undefined ? null : checkMapping(command.mapping, header);
    });
    if (mapping === null) checked(() => mappingFromHeader(readCsvHead(command.csv, 0).header));
    if (command.listId !== undefined) await this.lists.require(accountId, command.listId);
    const importId = await this.uow.run(async (tx) => {
      let listId = command.listId ?? null;
      if (command.listName !== undefined) listId = (await this.lists.getOrCreate(accountId, command.listName, tx)).id;
      const id = await this.imports.insert(
        accountId,
        {
          state: 'queued',
          origin: command.origin,
          listId,
          fileName: command.fileName ?? '',
          csv: command.csv,
          mapping,
          consentSource: consentSourceOf(command.consentSource),
          apiKeyId: command.apiKeyId ?? null,
          userId: command.userId ?? null,
        },
        tx,
      );
      if (command.enqueue !== false) tx.afterCommit(() => this.queue.enqueue({ accountId, importId: id }));
      return id;
    });
    return this.get(accountId, importId);
  }

  /** An uploaded file kept as a draft until its columns are mapped (the page's two steps). */
  async createDraft(accountId: number, fileName: string, csv: string): Promise<number> {
    if (csv.trim() === '') throw failure('contactImportInvalid', 'Choose a CSV file to upload');
    checked(() => readCsvHead(csv, PREVIEW_ROWS));
    return this.imports.insert(accountId, {
      state: 'draft',
      origin: 'dashboard',
      listId: null,
      fileName,
      csv,
      mapping: null,
      consentSource: null,
      apiKeyId: null,
      userId: null,
    });
  }

  /** A draft's header row and first lines; null when the import is no longer a draft. */
  async preview(accountId: number, importId: number): Promise<{ fileName: string; header: string[]; records: string[][] } | null> {
    const draft = await this.imports.findDraftCsv(accountId, importId);
    if (!draft) return null;
    return { fileName: draft.file_name, ...checked(() => readCsvHead(draft.csv, PREVIEW_ROWS)) };
  }

  /** Starts a draft with the mapping chosen on the page (field → column header). */
  async startDraft(accountId: number, importId: number, mapping: ColumnMapping, list: ImportListChoice, statement: { consentSource?: string; userId: number }): Promise<void> {
    const draft = await this.imports.findDraftCsv(accountId, importId);
    if (!draft) {
      if (await this.imports.findReport(accountId, importId)) throw failure('contactImportStarted');
      throw failure('contactImportNotFound');
    }
    const checkedMapping = checked(() => checkMapping(mapping, readCsvHead(draft.csv, 0).header));
    await this.uow.run(async (tx) => {
      let listId: number | null = null;
      if (list && 'listId' in list) listId = (await this.lists.require(accountId, list.listId, tx)).id;
      else if (list) listId = (await this.lists.getOrCreate(accountId, list.newListName, tx)).id;
      const start = { mapping: checkedMapping, listId, consentSource: consentSourceOf(statement.consentSource), userId: statement.userId };
      if (!(await this.imports.queueDraft(accountId, importId, start, tx))) throw failure('contactImportStarted');
      tx.afterCommit(() => this.queue.enqueue({ accountId, importId }));
    });
  }

  /** An import's state and report, or 404 Contact import not found (also another account's). */
  async get(accountId: number, importId: number): Promise<ContactImportView> {
    return toContactImportView(await this.report(accountId, importId));
  }

  async report(accountId: number, importId: number): Promise<ContactImportRow> {
    const row = await this.imports.findReport(accountId, importId);
    if (!row) throw failure('contactImportNotFound');
    return row;
  }

  async recent(accountId: number, limit: number): Promise<ContactImportRow[]> {
    return this.imports.recent(accountId, limit);
  }

  /** The retention purge: finished imports past CONTACT_IMPORT_RETENTION_DAYS, drafts past CONTACT_IMPORT_DRAFT_HOURS. */
  async purgeExpired(retentionDays: number, draftHours: number): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.imports.purge(retentionDays, draftHours, PURGE_BATCH);
      total += deleted;
      if (deleted < PURGE_BATCH) return total;
    }
  }

  /** The sweep: enqueues every import a worker should be running (one already queued is not added twice). */
  async requeueUnfinished(): Promise<number> {
    const unfinished = await this.imports.unfinished(1000);
    await Promise.all(unfinished.map((i) => this.queue.enqueue({ accountId: i.account_id, importId: i.id })));
    return unfinished.length;
  }
}
