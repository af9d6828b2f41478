import { Injectable } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import { ContactImportRow } from '../../contact-imports/contact-imports.repository';
import { ContactImportsService, ImportListChoice } from '../../contact-imports/contact-imports.service';
import { CONSENT_SOURCE_MAX } from '../../contact-imports/dto/contact-import.dto';
import { ColumnMapping, IMPORT_FIELDS, ImportField } from '../../contacts/contacts-csv';
import { ListsService } from '../../lists/lists.service';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { filenameField, notTextField } from '../../pages/multipart-form';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import type { DashboardUser } from '../dashboard-user';
import { show } from '../format';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';

/** Imports the page lists. */
const RECENT_IMPORTS = 20;
/** Lines of each kind the report shows (the API answers all of them). */
const REPORT_LINES = 200;

const FIELD_LABELS: Record<ImportField, string> = {
  number: 'Mobile number',
  first_name: 'First name',
  last_name: 'Last name',
  company: 'Company',
  other: 'Other',
  field_1: 'Field 1',
  field_2: 'Field 2',
  field_3: 'Field 3',
  field_4: 'Field 4',
  field_5: 'Field 5',
};

/** Headers people commonly give each field, so the mapping starts out right for most files. */
const HEADER_GUESSES: Record<ImportField, string[]> = {
  number: ['number', 'mobile', 'mobile number', 'phone', 'phone number', 'cell', 'mobile phone'],
  first_name: ['first_name', 'first name', 'firstname', 'first', 'given name', 'name'],
  last_name: ['last_name', 'last name', 'lastname', 'last', 'surname', 'family name'],
  company: ['company', 'business', 'organisation', 'organization'],
  other: ['other', 'notes'],
  field_1: ['field_1', 'field 1'],
  field_2: ['field_2', 'field 2'],
  field_3: ['field_3', 'field 3'],
  field_4: ['field_4', 'field 4'],
  field_5: ['field_5', 'field 5'],
};

const STATE_LABELS: Record<ContactImportRow['state'], string> = {
  draft: 'Waiting for its columns',
  queued: 'Waiting to start',
  running: 'Importing',
  complete: 'Complete',
  failed: 'Failed',
};

/** An import id from a path: anything but a positive integer is an import that does not exist. */
function importIdOf(text: string): number {
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) throw failure('contactImportNotFound');
  return Number(text);
}

const ORIGIN_NAMES: Record<ContactImportRow['origin'], string> = { api: 'Sent through the API', dashboard: 'Uploaded file', cli: 'Imported by an operator' };
const importName = (r: ContactImportRow) => r.file_name || ORIGIN_NAMES[r.origin];

const importPath = (id: number) => `${PAGES.contactImports.path}/${id}`;

function guessColumn(field: ImportField, header: string[]): number {
  return header.findIndex((h) => HEADER_GUESSES[field].includes(h.trim().toLowerCase()));
}

/**
 * Contact imports on the page (`manage_contacts`): upload a CSV (a multipart form), choose which column
 * fills which field and the list, then follow the job's progress to its report. The import itself is the
 * API's (ContactImportsService), run by a worker.
 */
@Injectable()
export class ImportsPageService {
  constructor(
    private readonly imports: ContactImportsService,
    private readonly lists: ListsService,
  ) {}

  async list(user: DashboardUser, query: Record<string, unknown>, error?: FormError): Promise<PageResult> {
    const rows = await this.imports.recent(user.accountId, RECENT_IMPORTS);
    return view(
      'dashboard/views/contact-imports',
      {
        title: 'Import contacts',
        notice: noticeFor(query.notice),
        ...errorModel(error),
        rows: rows.map((r) => ({
          id: r.id,
          fileName: importName(r),
          state: STATE_LABELS[r.state],
          list: r.list_name ?? '',
          added: r.added,
          updated: r.updated,
          createdAt: show.time(r.created_at, user.timeZone),
        })),
      },
      error?.status ?? 200,
    );
  }

  async upload(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    const csv = form && typeof form.file === 'string' ? form.file : '';
    const fileName = formText(form, filenameField('file')).slice(0, 255);
    return withFormErrors<PageResult>(
      async () => {
        // A spreadsheet's own encoding (Windows-1252) or a binary file: say how to save it, not what the parser met.
        if (formText(form, notTextField('file')) !== '') throw failure('uploadNotText');
        return redirectTo(importPath(await this.imports.createDraft(user.accountId, fileName, csv)));
      },
      (error) => this.list(user, {}, error),
    );
  }

  async show(user: DashboardUser, id: string, query: Record<string, unknown>, error?: FormError, typed?: FormBody): Promise<PageResult> {
    const importId = importIdOf(id);
    const preview = await this.imports.preview(user.accountId, importId);
    if (preview) return this.mappingForm(user, importId, preview, error, typed);
    const report = await this.imports.report(user.accountId, importId);
    return view(
      'dashboard/views/contact-import',
      { title: 'Contact import', notice: noticeFor(query.notice), ...errorModel(error), report: this.reportModel(report, user) },
      error?.status ?? 200,
    );
  }

  async start(user: DashboardUser, id: string, form: FormBody | undefined): Promise<PageResult> {
    const importId = importIdOf(id);
    return withFormErrors<PageResult>(
      async () => {
        const preview = await this.imports.preview(user.accountId, importId);
        if (!preview) throw failure((await this.imports.report(user.accountId, importId)) ? 'contactImportStarted' : 'contactImportNotFound');
        const consentSource = formText(form, 'consent_source');
        if (consentSource.length > CONSENT_SOURCE_MAX) throw failure('contactImportInvalid', `How they agreed must be at most ${CONSENT_SOURCE_MAX} characters`);
        await this.imports.startDraft(user.accountId, importId, this.mappingOf(form, preview.header), this.listChoiceOf(form), { consentSource, userId: user.userId });
        return redirectTo(withNotice(importPath(importId), 'import_started'));
      },
      (error) => this.show(user, id, {}, error, form),
    );
  }

  /** The form's selects name columns by position (`map_first_name=2`); the import keeps them by header. */
  private mappingOf(form: FormBody | undefined, header: string[]): ColumnMapping {
    const mapping: ColumnMapping = {};
    for (const field of IMPORT_FIELDS) {
      const chosen = formText(form, `map_${field}`);
      if (chosen === '') continue;
      const column = /^\d{1,4}$/.test(chosen) ? header[Number(chosen)] : undefined;
      if (column === undefined) throw failure('contactImportInvalid', `Choose a column for ${FIELD_LABELS[field]} from the list`);
      mapping[field] = column;
    }
    if (mapping.number === undefined) throw failure('contactImportInvalid', 'Choose the column that holds the mobile numbers');
    return mapping;
  }

  private listChoiceOf(form: FormBody | undefined): ImportListChoice {
    const newName = formText(form, 'new_list');
    if (newName !== '') return { newListName: newName };
    const listId = formText(form, 'list_id');
    if (listId === '') return null;
    if (!/^\d{1,15}$/.test(listId)) throw failure('listNotFound');
    return { listId: Number(listId) };
  }

  private async mappingForm(
    user: DashboardUser,
    importId: number,
    preview: { fileName: string; header: string[]; records: string[][] },
    error?: FormError,
    typed?: FormBody,
  ): Promise<PageResult> {
    const lists = await this.lists.names(user.accountId);
    const chosenList = formText(typed, 'list_id');
    const fields = IMPORT_FIELDS.map((field) => {
      const selected = typed ? formText(typed, `map_${field}`) : String(guessColumn(field, preview.header));
      return {
        field,
        label: FIELD_LABELS[field],
        required: field === 'number',
        options: preview.header.map((h, i) => ({ value: String(i), label: h || `Column ${i + 1}`, selected: selected === String(i) })),
      };
    });
    return view(
      'dashboard/views/contact-import-mapping',
      {
        title: 'Map the columns',
        ...errorModel(error),
        importId,
        fileName: preview.fileName || 'your file',
        header: preview.header.map((h, i) => h || `Column ${i + 1}`),
        records: preview.records.map((r) => preview.header.map((_, i) => r[i] ?? '')),
        fields,
        lists: lists.map((l) => ({ id: l.id, name: l.name, selected: chosenList === String(l.id) })),
        newList: formText(typed, 'new_list'),
        consentSource: formText(typed, 'consent_source'),
      },
      error?.status ?? 200,
    );
  }

  private reportModel(r: ContactImportRow, user: DashboardUser) {
    const running = r.state === 'queued' || r.state === 'running';
    const lines = <T>(all: T[]) => ({ shown: all.slice(0, REPORT_LINES), more: Math.max(0, all.length - REPORT_LINES), total: all.length });
    return {
      id: r.id,
      state: r.state,
      stateLabel: STATE_LABELS[r.state],
      running,
      fileName: importName(r),
      list: r.list_id === null ? null : { id: r.list_id, name: r.list_name },
      total: r.total_rows,
      valid: r.valid_rows,
      processed: r.processed_rows,
      percent: r.valid_rows > 0 ? Math.floor((r.processed_rows * 100) / r.valid_rows) : r.state === 'complete' ? 100 : 0,
      added: r.added,
      updated: r.updated,
      addedToList: r.added_to_list,
      invalid: lines(r.invalid),
      duplicates: lines(r.duplicates),
      optedOut: lines(r.opted_out),
      failure: r.failure,
      consentSource: r.consent_source,
      attempts: r.attempts,
      retried: r.attempts > 1,
      createdAt: show.time(r.created_at, user.timeZone),
      finishedAt: show.time(r.finished_at, user.timeZone),
    };
  }
}
