import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { mergeMap, Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import type { PageRequest } from './page-request';
import type { PageResult } from './page-result';
import { renderPage } from './render-page';

/**
 * Turns a page handler's result into the response: a rendered page with its status, or a 303 (302 for
 * a short link) to the next page. Nest writes the status of the route itself, so the chosen one is applied on send
 * (registerPages' onSend hook). Pages are private to the person who asked for them: never cached.
 */
@Injectable()
export class PageInterceptor implements NestInterceptor {
  constructor(private readonly config: AppConfig) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<string | Buffer | Readable> {
    const request = context.switchToHttp().getRequest<PageRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      mergeMap(async (result: PageResult) => {
        reply.header('Cache-Control', 'no-store');
        if (result.kind === 'redirect') {
          request.pageStatus = result.status ?? 303;
          reply.header('Location', result.location);
          return '';
        }
        if (result.kind === 'json') {
          request.pageStatus = result.status;
          reply.type('application/json; charset=utf-8');
          return JSON.stringify(result.body);
        }
        if (result.kind === 'stream') {
          request.pageStatus = 200;
          reply.type(result.contentType).header('Content-Disposition', `attachment; filename="${result.filename}"`);
          return result.body;
        }
        if (result.kind === 'file') {
          request.pageStatus = 200;
          reply.type(result.contentType).header('Content-Disposition', `attachment; filename="${result.filename}"`);
          return result.body;
        }
        const html = await renderPage(request, reply, this.config, result.template, result.model);
        request.pageStatus = result.status;
        reply.type('text/html; charset=utf-8');
        return html;
      }),
    );
  }
}
