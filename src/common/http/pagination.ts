import { checkField, convertField, Field, FieldSpec } from '../validation/field';

import { ErrorText, failure } from '../errors/error-catalogue';

export const DEFAULT_LIMIT = 100;

const LIMIT: FieldSpec = { kind: 'integer', source: 'query', min: 1, max: 200, messages: { invalid: ErrorText.limitOutOfRange }, description: 'Page size, 1-200 (default 100)' };
const OFFSET: FieldSpec = { kind: 'integer', source: 'query', min: 0, messages: { invalid: ErrorText.offsetInvalid }, description: 'Rows to skip (default 0)' };

/** `limit` (1..200, default 100) and `offset` (>= 0, default 0), with the supplement's texts. */
export class PageQuery {
  @Field(LIMIT)
  limit?: number;

  @Field(OFFSET)
  offset?: number;
}

/** Raw limit/offset for endpoints where they apply only sometimes (lookups by id ignore them). */
export class LaxPageQuery {
  @Field({ kind: 'text', source: 'query', description: LIMIT.description, doc: { type: 'integer', minimum: 1, maximum: 200 } })
  limit?: string;

  @Field({ kind: 'text', source: 'query', description: OFFSET.description, doc: { type: 'integer', minimum: 0 } })
  offset?: string;
}

/** Checks and converts raw limit/offset where they do apply. */
export function parsePage(raw: { limit?: string; offset?: string }): Page {
  for (const [name, spec] of [
    ['limit', LIMIT],
    ['offset', OFFSET],
  ] as const) {
    const error = checkField(name, spec, raw[name]);
    if (error) throw failure('invalidField', error);
  }
  return { limit: (convertField(LIMIT, raw.limit) as number | undefined) ?? DEFAULT_LIMIT, offset: (convertField(OFFSET, raw.offset) as number | undefined) ?? 0 };
}

export interface Page {
  limit: number;
  offset: number;
}

export function pageOf(query: { limit?: number; offset?: number }): Page {
  return { limit: query.limit ?? DEFAULT_LIMIT, offset: query.offset ?? 0 };
}

export interface PageResult<T> {
  status: 'complete';
  total: number;
  limit: number;
  offset: number;
  results: T[];
}

/** The paginated answer every list endpoint gives. */
export function pageResult<T>(page: Page, total: number, results: T[]): PageResult<T> {
  return { status: 'complete', total, limit: page.limit, offset: page.offset, results };
}
