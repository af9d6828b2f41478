import { Field } from '../validation/field';
import { ErrorText } from '../errors/error-catalogue';

export const DEFAULT_LIMIT = 100;

/** `limit` (1..200, default 100) and `offset` (>= 0, default 0), with the supplement's texts. */
export class PageQuery {
  @Field({ kind: 'integer', source: 'query', min: 1, max: 200, messages: { invalid: ErrorText.limitOutOfRange }, description: 'Page size, 1-200 (default 100)' })
  limit?: number;

  @Field({ kind: 'integer', source: 'query', min: 0, messages: { invalid: ErrorText.offsetInvalid }, description: 'Rows to skip (default 0)' })
  offset?: number;
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
