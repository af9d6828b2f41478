import { ApiProperty } from '@nestjs/swagger';
import { ErrorText } from '../../common/errors/error-catalogue';
import { TIMESTAMP_SCHEMA } from '../../common/http/openapi-schemas';
import { Field } from '../../common/validation/field';
import { IMPORT_FIELDS } from '../../contacts/contacts-csv';

/** The longest consent source an import keeps (a sentence saying how, not a document). */
export const CONSENT_SOURCE_MAX = 200;

const MAPPING_SCHEMA = {
  type: 'object',
  properties: Object.fromEntries(IMPORT_FIELDS.map((f) => [f, { type: 'string', description: `Header of the column that fills ${f}` }])),
  required: ['number'],
  additionalProperties: false,
};

export class CreateContactImportDto {
  @Field({
    kind: 'text',
    required: true,
    description: 'The file: a header row, then one contact per line (RFC 4180 quoting). Up to the request body limit.',
    example: 'Mobile,Given name\n0412345678,Ann\n',
  })
  csv: string;

  @Field({
    kind: 'object',
    description:
      'Which column (by its header, matched case-insensitively) fills which contact field; columns it does not name are ignored. Without it the headers must be contact field names.',
    example: { number: 'Mobile', first_name: 'Given name' },
    doc: MAPPING_SCHEMA,
  })
  mapping?: Record<string, unknown>;

  @Field({
    kind: 'integer',
    min: 1,
    messages: { invalid: ErrorText.mustBePositiveInteger('list_id') },
    description: 'A list of the account the imported contacts join',
    example: 7,
  })
  list_id?: number;

  @Field({
    kind: 'text',
    maxLength: CONSENT_SOURCE_MAX,
    description:
      'How the people in the file agreed to hear from you (a sign-up form, an in-store opt-in, …). Given, the import records an opt-in consent record (source `import`, with this text and the import id as its detail, and the API key) for every number it writes that is not on the unsubscribe list; see GET /v1/consent. Blank: none.',
    example: 'Website sign-up form, May 2026',
  })
  consent_source?: string;
}

export class ContactImportQuery {
  @Field({ kind: 'integer', required: true, source: 'query', min: 1, messages: { invalid: ErrorText.mustBePositiveInteger('import_id') }, example: 12 })
  import_id: number;
}

class InvalidLineDto {
  @ApiProperty({ type: 'integer', example: 5 }) line: number;
  @ApiProperty({ example: 'Invalid phone number format' }) reason: string;
}

class DuplicateLineDto {
  @ApiProperty({ type: 'integer', example: 9 }) line: number;
  @ApiProperty({ example: '61412345678' }) number: string;
  @ApiProperty({ type: 'integer', description: 'The line whose row was kept', example: 2 }) first_line: number;
}

class OptedOutLineDto {
  @ApiProperty({ type: 'integer', example: 14 }) line: number;
  @ApiProperty({ example: '61412345679' }) number: string;
}

export class ContactImportDto {
  @ApiProperty({ enum: ['complete'], description: 'The request succeeded; the import itself is in `state`' }) status: string;
  @ApiProperty({ type: 'integer', example: 12 }) import_id: number;
  @ApiProperty({
    enum: ['draft', 'queued', 'running', 'complete', 'failed'],
    description: 'queued, then running (processed_rows moves), then complete or failed (see failure). draft: uploaded on the dashboard, columns not mapped yet.',
  })
  state: string;
  @ApiProperty({ type: 'integer', nullable: true, example: 7 }) list_id: number | null;
  @ApiProperty({ type: 'integer', description: 'Data lines in the file (0 until the job has read it)', example: 1000 }) total_rows: number;
  @ApiProperty({ type: 'integer', description: 'Lines to write once invalid lines and repeated numbers are set aside', example: 998 }) valid_rows: number;
  @ApiProperty({ type: 'integer', description: 'Valid lines written so far', example: 998 }) processed_rows: number;
  @ApiProperty({ type: 'integer', description: 'Contacts created', example: 900 }) added: number;
  @ApiProperty({ type: 'integer', description: 'Existing contacts whose mapped fields were updated', example: 98 }) updated: number;
  @ApiProperty({ type: 'integer', description: 'Contacts that joined the list', example: 990 }) added_to_list: number;
  @ApiProperty({ type: 'integer', example: 1 }) skipped_invalid: number;
  @ApiProperty({ type: 'integer', example: 1 }) skipped_duplicates: number;
  @ApiProperty({ type: 'integer', description: 'Numbers on the unsubscribe list: imported as contacts, never added to the list', example: 8 }) opted_out_count: number;
  @ApiProperty({ type: [InvalidLineDto] }) invalid: InvalidLineDto[];
  @ApiProperty({ type: [DuplicateLineDto], description: 'Later lines repeating a number; the first line is kept' }) duplicates: DuplicateLineDto[];
  @ApiProperty({ type: [OptedOutLineDto] }) opted_out: OptedOutLineDto[];
  @ApiProperty({ type: 'string', nullable: true, description: 'Why a failed import stopped', example: null }) failure: string | null;
  @ApiProperty({ type: 'integer', description: 'Runs started so far; an import fails once it has used the operator’s limit (5 unless set otherwise)', example: 1 })
  attempts: number;
  @ApiProperty({ type: 'string', nullable: true, description: 'The consent source the import was given (it records opt-in consent); null: none', example: null })
  consent_source: string | null;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'UTC' }) created_at: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, nullable: true, description: 'UTC; null until complete or failed' }) finished_at: string | null;
}
