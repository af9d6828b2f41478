import { DomainError, DomainErrorKind } from '../common/errors/domain-error';
import { STATUS_OF } from '../common/errors/error-mapping';
import { fieldOfError } from './form-fields';
import { pageWordingOf } from './form-wording';

/** Errors a person can fix on the form they sent; anything else (403, 404, our failures) is an error page. */
const FIXABLE: readonly DomainErrorKind[] = ['invalid', 'conflict', 'unauthenticated', 'too_many_requests', 'unprocessable'];

/** A fixable error: its text, status, the field it is about (form-fields.ts), and for a 429 that knows its wait, the seconds for Retry-After. */
export interface FormError {
  message: string;
  status: number;
  field?: string;
  retryAfterSeconds?: number;
}

/**
 * The text (in the page's wording) and status to re-render a form with, when the error is one the person can fix; null otherwise (rethrow it).
 * `kinds`: a form that can show more on itself (the Send page: a list deleted meanwhile) names its own.
 */
export function fixableFormError(error: unknown, kinds: readonly DomainErrorKind[] = FIXABLE): FormError | null {
  if (!(error instanceof DomainError) || !kinds.includes(error.kind)) return null;
  const field = fieldOfError(error);
  return {
    message: pageWordingOf(error),
    status: STATUS_OF[error.kind],
    ...(field ? { field } : {}),
    ...(error.retryAfterSeconds ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  };
}

/**
 * What a page's model says of an error: `error`, the text the `form-error` partial shows (id `form-error`), and
 * `errorField`, the field the `fieldAria` helper marks as invalid and described by that text. `form` names the
 * form when a page repeats a field in several (an API key's own access form); the helper is told the same.
 */
export function errorModel(error: Pick<FormError, 'message' | 'field'> | undefined, form?: string): { error?: string; errorField?: string; errorForm?: string } {
  if (!error) return {};
  return { error: error.message, ...(error.field ? { errorField: error.field } : {}), ...(form !== undefined ? { errorForm: form } : {}) };
}

/**
 * Runs a form's action; a fixable error re-renders the form with the error and its status (via
 * `onError`), anything else propagates to the error pages.
 */
export async function withFormErrors<T>(action: () => Promise<T>, onError: (error: FormError) => Promise<T> | T): Promise<T> {
  try {
    return await action();
  } catch (err) {
    const fixable = fixableFormError(err);
    if (!fixable) throw err;
    return onError(fixable);
  }
}
