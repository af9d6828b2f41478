import { ArgumentsHost, Catch, ExceptionFilter, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RouteTable } from '../http/route-table';
import { ErrorText } from './error-catalogue';
import { ErrorResponse, mapError } from './error-mapping';
import type { HtmlErrorResponder } from './html-error-responder';
import { redactUrl } from '../logging/redact-url';

/**
 * The only place that knows HTTP statuses and the `{"error": "..."}` envelope. Catches everything:
 * domain errors, Nest's route-not-found (turned into 405 when the path exists with other methods),
 * Fastify's own errors (body too large) and anything unexpected (500, logged with the request id).
 * Browsers on page routes get the same status as an HTML page instead (the HtmlErrorResponder).
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  constructor(
    private readonly routes: RouteTable,
    private readonly html?: HtmlErrorResponder,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    this.answer(exception, host.switchToHttp().getRequest<FastifyRequest>(), host.switchToHttp().getResponse<FastifyReply>());
  }

  /** Answers `exception` as the envelope or an error page; also used by the routes served outside Nest's pipeline (the short link). */
  answer(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const response = this.toResponse(exception, request);
    if (response.log) {
      // request.log is the request's child logger, so the line carries its reqId.
      request.log.error({ method: request.method, url: redactUrl(request.url), err: serialise(exception) }, 'request failed');
    }
    if (reply.sent) return;
    if (this.html?.wantsHtml(request)) {
      this.html.respond(request, reply, response).catch((err: unknown) => {
        request.log.error({ err: serialise(err) }, 'error page failed');
        if (!reply.sent) reply.code(response.status).type('text/plain; charset=utf-8').send(response.body.error);
      });
      return;
    }
    reply.code(response.status).headers(response.headers).type('application/json; charset=utf-8').send(JSON.stringify(response.body));
  }

  private toResponse(exception: unknown, request: FastifyRequest): ErrorResponse {
    if (exception instanceof NotFoundException) {
      const allowed = this.routes.allowedMethods(request.url);
      if (allowed.length > 0) {
        return { status: 405, body: { error: ErrorText.methodNotAllowed(allowed) }, headers: { Allow: allowed.join(', ') }, log: false };
      }
    }
    return mapError(exception);
  }
}

function serialise(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return { type: error.name, message: error.message, stack: error.stack, ...(cause ? { cause: serialise(cause) } : {}) };
  }
  return { value: String(error) };
}
