import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/view';
import type { AppConfig } from '../config/app-config';
import { csrfTokenForResponse } from './csrf';
import type { PageRequest } from './page-request';

/**
 * Renders a template inside the layout with what every page sees: the request's page locals (the
 * signed-in person and navigation, when a guard added them) and the CSRF token for its forms.
 */
export function renderPage(request: FastifyRequest, reply: FastifyReply, config: AppConfig, template: string, model: Record<string, unknown>): Promise<string> {
  const locals = (request as PageRequest).pageLocals ?? {};
  const csrfToken = csrfTokenForResponse(request, reply, config);
  return reply.viewAsync(template, { ...locals, csrfToken, ...model });
}
