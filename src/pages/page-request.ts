import type { FastifyRequest } from 'fastify';

/**
 * What a page request carries besides Fastify's own: values guards add for the layout (the signed-in
 * person, the navigation) and the status the page interceptor chose.
 */
export type PageRequest = FastifyRequest & {
  pageLocals?: Record<string, unknown>;
  pageStatus?: number;
};

/** Adds values every template of this request sees (the layout's user and navigation). */
export function addPageLocals(request: FastifyRequest, values: Record<string, unknown>): void {
  const page = request as PageRequest;
  page.pageLocals = { ...(page.pageLocals ?? {}), ...values };
}
