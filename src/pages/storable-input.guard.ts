import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { failure } from '../common/errors/error-catalogue';
import type { DomainError } from '../common/errors/domain-error';
import { isStorableText } from '../common/validation/storable-text';

/**
 * Pages read their query and form fields as plain strings, without the API's field checks, and hand
 * them to the same services and queries: a NUL (or an unpaired surrogate) would reach PostgreSQL, which
 * refuses it. Every page route refuses such a field before its handler runs, naming it as the API does
 * (`400 <field> must not contain NUL characters or unpaired surrogates`, an error page for browsers).
 * After the sign-in and CSRF guards, so a signed-out browser is still sent to sign in first. A file's
 * content is checked like any field: an uploaded file never holds one (the upload parser blanks a file
 * that is not UTF-8 text, or holds a NUL, and marks it so its page can say so), and a field that only
 * claims to be a file (a `<name>:filename` beside it in a query or a form) gets no exemption.
 */
@Injectable()
export class StorableInputGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const refusal = unstorableField(request.query) ?? unstorableField(request.body);
    if (refusal) throw refusal;
    return true;
  }
}

/** The refusal for the first field (name or value) PostgreSQL could not store, or null. */
export function unstorableField(fields: unknown): DomainError | null {
  if (fields === null || typeof fields !== 'object') return null;
  const form = fields as Record<string, unknown>;
  for (const [name, value] of Object.entries(form)) {
    // A name that cannot be stored cannot be named either.
    if (!isStorableText(name)) return failure('unstorableInput');
    for (const text of Array.isArray(value) ? value : [value]) {
      if (typeof text === 'string' && !isStorableText(text)) return failure('unstorableText', name);
    }
  }
  return null;
}
