import { applyDecorators, CanActivate, Controller, Type, UseGuards, UseInterceptors } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/auth/public.decorator';
import { CsrfGuard } from './csrf';
import { PageInterceptor } from './page.interceptor';
import { PAGE_ROUTE_CONFIG } from './page-route';
import { StorableInputGuard } from './storable-input.guard';

/**
 * A controller of HTML pages. Its routes need no API key and take no in-flight slot (@Public), are
 * left out of the OpenAPI document, parse form bodies, answer errors as pages, carry the security
 * headers, check the CSRF token of every state-changing request and refuse query and form fields
 * PostgreSQL cannot store (both after `guards`, so a signed-out browser is sent to sign in first), and
 * return PageResults (view or redirect). `documented` keeps the routes in the OpenAPI document (public
 * link pages, which answer API clients in the envelope).
 */
export function PageController(path: string, options: { guards?: Array<Type<CanActivate>>; documented?: boolean } = {}): ClassDecorator {
  return (target) => {
    const prototype = (target as unknown as Type).prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      const existing = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as object | undefined) ?? {};
      Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, ...PAGE_ROUTE_CONFIG }, handler);
    }
    // Public pages that API clients also reach (short links, the opt-out page) are in the document.
    const docs = options.documented ? [] : [ApiExcludeController()];
    applyDecorators(Controller(path), Public(), ...docs, UseGuards(...(options.guards ?? []), CsrfGuard, StorableInputGuard), UseInterceptors(PageInterceptor))(target);
  };
}
